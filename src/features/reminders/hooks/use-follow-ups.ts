import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import type { LeadNestDb } from '../../../lib/db';
import { type FollowUpItem, followUpsView } from '../lib/follow-ups';

/** The open follow-ups of the signed-in employee, read live from the device (works offline). */
export function useFollowUps(db: LeadNestDb): { items: FollowUpItem[]; loaded: boolean } {
  const stored = useLiveQuery(() => db.getMeta('reminders'), [db]);
  const rows = useLiveQuery(
    () =>
      db.outbox
        .orderBy('[createdAt+id]')
        .filter((r) => r.kind === 'reminder' || r.kind === 'reminder-update')
        .toArray(),
    [db],
  );
  const items = useMemo(() => followUpsView(stored ?? [], rows ?? []), [stored, rows]);
  return { items, loaded: rows !== undefined };
}

/** The clock, moved on every `everyMs`: what is overdue changes while the screen stays open. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') setNow(Date.now());
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [everyMs]);
  return now;
}
