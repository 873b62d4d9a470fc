import type { LeadNestDb, OutboxRow } from '../../../lib/db';
import { enqueue } from '../../sync/outbox';
import type { FollowUpItem } from './follow-ups';

/**
 * Done and snooze are outbox writes like every other (DESIGN.md §6): one row, shown at once, sent
 * with its id as the Idempotency-Key. A reminder still waiting on the device is named by its row
 * id; the sync engine swaps in the server's id once that reminder is stored.
 */
function enqueueUpdate(
  db: LeadNestDb,
  item: FollowUpItem,
  body: Record<string, unknown>,
): Promise<OutboxRow> {
  return enqueue(db, {
    kind: 'reminder-update',
    leadId: item.leadId,
    leadName: item.leadName,
    payload: { reminderId: item.reminderId, ...body },
  });
}

export const markDone = (db: LeadNestDb, item: FollowUpItem) => enqueueUpdate(db, item, { done: true });

export const snoozeUntil = (db: LeadNestDb, item: FollowUpItem, until: Date) =>
  enqueueUpdate(db, item, { snoozeUntil: until.toISOString() });
