import { useCallback, useRef } from 'react';
import toast from 'react-hot-toast';
import { leadStatusMessages } from '../../../../contract/lead-status-rules';
import { messages } from '../../../../contract/messages';
import type { ClientStatusOption } from '../../../../contract/options';
import { syncMessages } from '../../../../contract/sync';
import type { CachedLead, LeadNestDb, OutboxRow } from '../../../lib/db';
import type { SavedNote } from '../../notes/components/note-form';
import { requestBackgroundSync } from '../../sync/background-sync';
import { discardRow, enqueue, enqueueNewLead, rowsForLead } from '../../sync/outbox';
import type { SyncEngine, SyncEvent } from '../../sync/sync-engine';
import { clientStatusIdFor } from '../lib/columns';
import { needsFirstNote } from '../lib/first-note';

// Spec §9: employee toasts sit top-centre (the app's Toaster) and last 2000 ms.
export const BOARD_TOAST = { duration: 2000 } as const;

export type AddLeadOutcome =
  | { type: 'added'; leadId: number }
  | { type: 'queued'; leadId: number }
  | { type: 'refused'; message: string };

interface Options {
  db: LeadNestDb;
  engine: SyncEngine;
  email: string;
  statuses: readonly ClientStatusOption[];
  /**
   * Opens the Add Note modal on a lead, with the client status the user was aiming for; `moveTo`
   * names the column when the note is what moves the lead there.
   */
  openNote: (leadId: number, clientStatusId: number | null, moveTo?: string | null) => void;
}

/**
 * The board's writes. Each one is an outbox row applied to the card at once, then an immediate
 * flush; the sync events decide the toasts (DESIGN.md §5).
 */
export function useBoardActions({ db, engine, email, statuses, openNote }: Options) {
  // Rows whose outcome a modal shows itself, so no second toast repeats it.
  const shownInline = useRef(new Set<string>());
  const answers = useRef(new Map<string, number>());
  const synced = useRef(0);

  const onEvent = useCallback(
    (event: SyncEvent) => {
      switch (event.type) {
        case 'synced': {
          const { row, answer } = event;
          if (answer.kind === 'lead') answers.current.set(row.id, answer.body.leadID);
          if (answer.kind === 'reminder') {
            void db.transaction('rw', db.meta, async () => {
              const seen = (await db.getMeta('notifiedReminders')) ?? [];
              // The reminder keeps the "already notified" mark it had while it waited on this device.
              if (seen.includes(row.id))
                await db.setMeta('notifiedReminders', [...seen, `r-${answer.body.reminderId}`]);
            });
          }
          if (row.attempts > 0) {
            synced.current += 1;
            return;
          }
          if (shownInline.current.has(row.id)) return;
          if (answer.kind === 'status') {
            toast.success(messages.board.statusUpdated, BOARD_TOAST);
            toast(leadStatusMessages.moved(row.leadName, row.statusName ?? answer.body.status), BOARD_TOAST);
          } else if (answer.kind === 'note') toast.success(messages.board.noteSaved, BOARD_TOAST);
          else if (answer.kind === 'reminder') toast.success(messages.board.reminderSet, BOARD_TOAST);
          else toast.success(messages.board.leadAdded, BOARD_TOAST);
          return;
        }
        case 'needs-note':
          toast.error(event.message, BOARD_TOAST);
          openNote(event.row.leadId, Number(event.row.payload.clientStatusId) || null, event.row.statusName);
          return;
        case 'attention':
          if (!shownInline.current.has(event.row.id)) toast.error(event.message, BOARD_TOAST);
          return;
        case 'auth':
          toast.error(syncMessages.signInAgain, BOARD_TOAST);
          return;
        case 'idle':
          if (synced.current > 0) toast.success(syncMessages.synced(synced.current), BOARD_TOAST);
          synced.current = 0;
          return;
      }
    },
    [db, openNote],
  );

  /** Flushes now; a row still waiting afterwards means no network, which the user is told once. */
  const sendNow = useCallback(
    async (row: OutboxRow): Promise<OutboxRow | undefined> => {
      await engine.flush();
      const left = await db.outbox.get(row.id);
      if (left?.state === 'pending') {
        // One toast however many changes are made offline: the header keeps the count.
        if (!shownInline.current.has(row.id))
          toast(syncMessages.savedOffline, { ...BOARD_TOAST, id: 'saved-offline' });
        void requestBackgroundSync();
      }
      return left;
    },
    [db, engine],
  );

  /**
   * A move. A lead with no status record gets the note modal at once, online or offline: the
   * saved note (one outbox row carrying the client status) is what moves it, and closing the
   * modal leaves the card where it was. The server's requireNotePopup answer still covers what
   * the device could not know.
   */
  const moveLead = useCallback(
    async (lead: CachedLead, column: string) => {
      const clientStatusId = clientStatusIdFor(column, statuses);
      const current = (await db.leads.get(lead.leadID)) ?? lead;
      if (needsFirstNote(current, await rowsForLead(db, lead.leadID))) {
        openNote(lead.leadID, clientStatusId, column);
        return;
      }
      const row = await enqueue(db, {
        kind: 'status',
        leadId: lead.leadID,
        leadName: lead.name,
        statusName: column,
        payload: {
          leadId: lead.leadID,
          leadStatusId: lead.leadStatusId,
          clientStatusId,
          updatedBy: email,
        },
      });
      await sendNow(row);
    },
    [db, email, statuses, sendNow, openNote],
  );

  const saveNote = useCallback(
    async (lead: CachedLead, note: SavedNote) => {
      const now = new Date().toISOString();
      const statusName = statuses.find((s) => s.clientStatusId === note.clientStatusId)?.clientStat ?? null;
      const row = await enqueue(db, {
        kind: 'note',
        leadId: lead.leadID,
        leadName: lead.name,
        statusName,
        // Spec §3 note record, /employee variant.
        payload: {
          id: lead.leadStatusId,
          leadId: lead.leadID,
          notes: note.notes,
          callDateTime: now,
          callStatusId: note.callStatusId,
          clientStatusId: note.clientStatusId,
          locationId: note.locationId,
          configurationId: note.configurationId,
          clientPriorityId: 1,
          tokenId: 1,
          createdBy: email,
          createdOn: now,
          lastUpdatedBy: email,
          lastUpdatedOn: now,
        },
      });
      await sendNow(row);
    },
    [db, email, statuses, sendNow],
  );

  const setReminder = useCallback(
    async (lead: CachedLead, reminder: { reminderTime: string; employeeEmail: string }, note: string) => {
      const now = new Date().toISOString();
      const row = await enqueue(db, {
        kind: 'reminder',
        leadId: lead.leadID,
        leadName: lead.name,
        payload: {
          leadId: lead.leadID,
          employeeEmail: reminder.employeeEmail,
          reminderTime: reminder.reminderTime,
          note,
          isSent: false,
          createdBy: email,
          createdOn: now,
        },
      });
      await sendNow(row);
    },
    [db, email, sendNow],
  );

  /**
   * Adds a lead assigned to the employee. A refusal (a duplicate phone names who holds the lead)
   * is shown in the form, which still holds what was typed, so the row is not kept.
   */
  const addLead = useCallback(
    async (values: {
      name: string;
      phoneNo: string;
      email: string;
      status: string | null;
    }): Promise<AddLeadOutcome> => {
      const row = await enqueueNewLead(db, {
        name: values.name.trim(),
        phoneNo: values.phoneNo.trim(),
        email: values.email.trim(),
        assignedTo: email,
        assignedDate: new Date().toISOString(),
        status: values.status,
      });
      shownInline.current.add(row.id);
      const left = await sendNow(row);
      if (!left) return { type: 'added', leadId: answers.current.get(row.id) ?? row.leadId };
      if (left.state === 'attention') {
        await discardRow(db, row.id);
        return { type: 'refused', message: left.error ?? messages.board.leadAddFailed };
      }
      return { type: 'queued', leadId: row.leadId };
    },
    [db, email, sendNow],
  );

  return { onEvent, moveLead, saveNote, setReminder, addLead };
}
