import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useMemo } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router-dom';
import { followUpLeadPath } from '../../../../contract/follow-ups-rules';
import { syncMessages } from '../../../../contract/sync';
import { todayMessages as t } from '../../../../contract/today-messages';
import { userDb } from '../../../lib/db';
import { requestBackgroundSync } from '../../sync/background-sync';
import { useOnline, useSyncEngine } from '../../sync/hooks/use-sync-engine';
import type { SyncEvent } from '../../sync/sync-engine';
import { useFollowUps, useNow } from '../hooks/use-follow-ups';
import { type FollowUpItem, todaySections, whenLabel } from '../lib/follow-ups';
import { rememberContact, usePostCallPrompt } from '../lib/post-call';
import { markDone, snoozeUntil } from '../lib/reminder-actions';
import { FollowUpRow } from './follow-up-row';
import { SnoozeMenu } from './snooze-menu';
import '../../board/board.css';
import '../today.css';

const TOAST = { duration: 2000 } as const;

/** The board's note modal on that lead, with "Call Status" to fill in (the post-call prompt). */
export const postCallPath = (leadId: number) => `${followUpLeadPath(leadId)}&after=call`;

/** Today (issue 15): overdue, due today and upcoming follow-ups, from the device, online or not. */
export function TodayScreen({ email }: { email: string }) {
  const db = useMemo(() => userDb(email), [email]);
  const navigate = useNavigate();
  const online = useOnline();
  const now = useNow();
  const { items, loaded } = useFollowUps(db);
  const phones = useLiveQuery(
    async () => new Map((await db.leads.toArray()).map((l) => [l.leadID, l.phoneNo || l.contactNo])),
    [db],
  );
  const onEvent = useCallback((event: SyncEvent) => {
    if (event.type === 'attention') toast.error(event.message, TOAST);
    if (event.type === 'auth') toast.error(syncMessages.signInAgain, TOAST);
  }, []);
  const { engine } = useSyncEngine(db, onEvent);
  usePostCallPrompt((leadId) => navigate(postCallPath(leadId)));

  const sections = todaySections(items, now);

  async function send(write: Promise<{ id: string }>, message: string) {
    let row: { id: string };
    try {
      row = await write;
    } catch (error) {
      console.warn('Could not store the follow-up change on this device', error);
      toast.error(t.notStored, TOAST);
      return;
    }
    toast.success(message, TOAST);
    // Stored on the device: from here on, a failure only delays the sending (the engine retries).
    try {
      await engine.flush();
      if ((await db.outbox.get(row.id))?.state === 'pending') void requestBackgroundSync();
    } catch (error) {
      console.warn('Sending the follow-up change waits for the next try', error);
    }
  }
  const actionsFor = (item: FollowUpItem) => ({
    onDone: () => void send(markDone(db, item), t.markedDone(item.leadName)),
    onSnooze: (until: Date) =>
      void send(
        snoozeUntil(db, item, until),
        t.snoozed(item.leadName, whenLabel(until.toISOString(), Date.now())),
      ),
  });

  return (
    <div className="today">
      <header className="today-header">
        <h1 className="page-title">{t.title}</h1>
        {!online ? <span className="offline-mark">Offline</span> : null}
      </header>
      {!loaded ? (
        <p className="page-loading">Loading your follow-ups…</p>
      ) : (
        <>
          <Section
            id="overdue"
            title={t.overdue}
            empty={t.nothingOverdue}
            items={sections.overdue}
            overdue
            now={now}
            phones={phones}
            actionsFor={actionsFor}
          />
          <Section
            id="due-today"
            title={t.dueToday}
            empty={t.nothingToday}
            items={sections.today}
            now={now}
            phones={phones}
            actionsFor={actionsFor}
          />
          <Section
            id="upcoming"
            title={t.upcoming}
            empty={t.nothingUpcoming}
            items={sections.upcoming}
            now={now}
            phones={phones}
            actionsFor={actionsFor}
          />
        </>
      )}
    </div>
  );
}

interface SectionProps {
  id: string;
  title: string;
  empty: string;
  items: FollowUpItem[];
  overdue?: boolean;
  now: number;
  phones: Map<number, string> | undefined;
  actionsFor: (item: FollowUpItem) => { onDone: () => void; onSnooze: (until: Date) => void };
}

function Section({ id, title, empty, items, overdue = false, now, phones, actionsFor }: SectionProps) {
  return (
    <section className="today-section" data-kind={id} aria-labelledby={`today-${id}`}>
      <h2 id={`today-${id}`} className="today-section-title">
        {title} <span className="count-badge">{items.length}</span>
      </h2>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="follow-up-list">
          {items.map((item) => {
            const { onDone, onSnooze } = actionsFor(item);
            return (
              <FollowUpRow
                key={item.key}
                item={item}
                phone={item.leadPhone || phones?.get(item.leadId) || ''}
                overdue={overdue}
                now={now}
                onContact={rememberContact}
                onDone={onDone}
              >
                <SnoozeMenu leadName={item.leadName} onSnooze={onSnooze} />
              </FollowUpRow>
            );
          })}
        </ul>
      )}
    </section>
  );
}
