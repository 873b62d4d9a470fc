import { SYNC_MAX_OPS } from '../../../contract/sync-batch';
import type { OutboxRow } from '../../lib/db';
import type { RowAnswer } from './api/send-row';

/** Under the server's 1 MB body limit with room for the envelope. */
const MAX_BATCH_BYTES = 900 * 1024;

export interface BatchPlan {
  rows: OutboxRow[];
  /** The soonest retry time of a row left out for its backoff; Infinity when none was. */
  retryAt: number;
}

/**
 * The rows the next POST /api/sync carries, oldest first. A lead's rows keep their order: a row
 * under "Needs attention" or waiting for its retry time holds the rows of its lead made after it,
 * and a row of a lead added offline goes only with (or after) the row that creates the lead.
 */
export function planBatch(rows: readonly OutboxRow[], now: number, force: boolean): BatchPlan {
  const held = new Set<number>();
  const creating = new Set<number>();
  const batch: OutboxRow[] = [];
  let bytes = 0;
  let retryAt = Number.POSITIVE_INFINITY;
  for (const row of rows) {
    if (held.has(row.leadId)) continue;
    if (row.state !== 'pending') {
      held.add(row.leadId);
      continue;
    }
    if (!force && row.nextAttemptAt > now) {
      held.add(row.leadId);
      retryAt = Math.min(retryAt, row.nextAttemptAt);
      continue;
    }
    if (row.kind !== 'lead' && row.leadId < 0 && !creating.has(row.leadId)) {
      held.add(row.leadId);
      continue;
    }
    if (waitsForReminder(row)) {
      held.add(row.leadId);
      continue;
    }
    const size = JSON.stringify(row.payload).length + 200;
    if (batch.length === SYNC_MAX_OPS || (batch.length > 0 && bytes + size > MAX_BATCH_BYTES)) break;
    if (row.kind === 'lead') creating.add(row.leadId);
    batch.push(row);
    bytes += size;
  }
  return { rows: batch, retryAt };
}

/**
 * A done or snooze of a reminder still waiting on the device names it by its row id (a string):
 * it goes once that reminder is stored and the engine has put in the server's id.
 */
export function waitsForReminder(row: OutboxRow): boolean {
  return row.kind === 'reminder-update' && typeof row.payload.reminderId !== 'number';
}

/** A batch result's body as the answer its single call would have given the outbox. */
export function answerOf(row: OutboxRow, body: unknown): RowAnswer {
  return { kind: row.kind, body } as RowAnswer;
}
