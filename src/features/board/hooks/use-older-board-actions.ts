import { useCallback, useRef } from 'react';
import toast from 'react-hot-toast';
import { messages } from '../../../../contract/messages';
import type { ClientStatusOption } from '../../../../contract/options';
import { syncMessages } from '../../../../contract/sync';
import type { CachedLead, LeadNestDb, OutboxRow } from '../../../lib/db';
import { requestBackgroundSync } from '../../sync/background-sync';
import { enqueue } from '../../sync/outbox';
import type { SyncEngine, SyncEvent } from '../../sync/sync-engine';
import { olderColumnKey } from '../lib/older-columns';
import { BOARD_TOAST } from './use-board-actions';

export interface OlderNote {
  callStatusId: number;
  clientStatusId: number;
  notes: string;
}

interface Options {
  db: LeadNestDb;
  engine: SyncEngine;
  email: string;
  clientStatuses: readonly ClientStatusOption[];
  /** Opens a card's Notes form when the server wants a note before the first status. */
  openNotes: (leadId: number) => void;
}

/**
 * The older board's two writes, through the same outbox as /employee (DESIGN.md §5): each is
 * applied to the card at once and sent now, or later when the network is back.
 */
export function useOlderBoardActions({ db, engine, email, clientStatuses, openNotes }: Options) {
  const syncedLater = useRef(0);

  const onEvent = useCallback(
    (event: SyncEvent) => {
      switch (event.type) {
        case 'synced':
          if (event.row.attempts > 0) syncedLater.current += 1;
          else if (event.answer.kind === 'status') toast.success(messages.board.statusUpdated, BOARD_TOAST);
          else if (event.answer.kind === 'note') toast.success(messages.board.noteSaved, BOARD_TOAST);
          return;
        case 'needs-note':
          // The move was dropped and the card is back; the note that creates the status comes first.
          toast.error(event.message, BOARD_TOAST);
          openNotes(event.row.leadId);
          return;
        case 'attention':
          toast.error(event.message, BOARD_TOAST);
          return;
        case 'auth':
          toast.error(syncMessages.signInAgain, BOARD_TOAST);
          return;
        case 'idle':
          if (syncedLater.current > 0) toast.success(syncMessages.synced(syncedLater.current), BOARD_TOAST);
          syncedLater.current = 0;
      }
    },
    [openNotes],
  );

  const sendNow = useCallback(
    async (row: OutboxRow) => {
      await engine.flush();
      if ((await db.outbox.get(row.id))?.state === 'pending') {
        toast(syncMessages.savedOffline, { ...BOARD_TOAST, id: 'saved-offline' });
        void requestBackgroundSync();
      }
    },
    [db, engine],
  );

  /** Spec §3 status change of the older board: `{leadId, status, updatedBy}`. */
  const moveLead = useCallback(
    async (lead: CachedLead, key: string) => {
      if (olderColumnKey(lead) === key) return;
      const row = await enqueue(db, {
        kind: 'status',
        leadId: lead.leadID,
        leadName: lead.name,
        statusName: key,
        payload: { leadId: lead.leadID, status: key, updatedBy: email },
      });
      await sendNow(row);
    },
    [db, email, sendNow],
  );

  /** Spec §3 note record; the older form has no location or configuration. */
  const saveNote = useCallback(
    async (lead: CachedLead, note: OlderNote) => {
      const now = new Date().toISOString();
      const row = await enqueue(db, {
        kind: 'note',
        leadId: lead.leadID,
        leadName: lead.name,
        statusName: clientStatuses.find((s) => s.clientStatusId === note.clientStatusId)?.clientStat ?? null,
        payload: {
          leadId: lead.leadID,
          notes: note.notes,
          callDateTime: now,
          locationId: null,
          callStatusId: note.callStatusId,
          clientStatusId: note.clientStatusId,
          configurationId: null,
          createdBy: email,
          createdOn: now,
          lastUpdatedBy: email,
          lastUpdatedOn: now,
        },
      });
      await sendNow(row);
    },
    [db, email, clientStatuses, sendNow],
  );

  return { onEvent, moveLead, saveNote };
}
