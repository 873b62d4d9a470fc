import { type Dispatch, type SetStateAction, useEffect } from 'react';
import type { LeadNestDb } from '../../../lib/db';
import type { SavedNote } from '../../notes/components/note-form';
import { syncEngineFor } from '../../sync/hooks/use-sync-engine';

/** A lead added offline gets its real id when synced; an open note modal follows it. */
export function useLeadIdSwaps<Open extends { leadId: number }>(
  db: LeadNestDb,
  setNoteFor: Dispatch<SetStateAction<Open | null>>,
  setSavedNotes: Dispatch<SetStateAction<Map<number, SavedNote>>>,
) {
  useEffect(
    () =>
      syncEngineFor(db).subscribe((event) => {
        if (event.type !== 'synced' || event.answer.kind !== 'lead') return;
        const [from, to] = [event.row.leadId, event.answer.body.leadID];
        setNoteFor((open) => (open?.leadId === from ? { ...open, leadId: to } : open));
        setSavedNotes((m) => {
          const saved = m.get(from);
          if (!saved) return m;
          const next = new Map(m);
          next.delete(from);
          return next.set(to, saved);
        });
      }),
    [db, setNoteFor, setSavedNotes],
  );
}
