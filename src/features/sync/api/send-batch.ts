import type { SyncBatchAnswer, SyncChanges, SyncOp, SyncResult } from '../../../../contract/sync-batch';
import { api } from '../../../lib/api-client';
import type { OutboxRow } from '../../../lib/db';

/** One outbox row as a batch op: its id is the key, its payload the single call's body. */
export const opOf = (row: OutboxRow): SyncOp => ({
  key: row.id,
  kind: row.kind,
  leadId: row.leadId,
  body: row.payload,
});

/** POST /api/sync (issue 18): one result per op, in order. A slow link gets more time than one write. */
export async function sendBatch(rows: readonly OutboxRow[]): Promise<SyncResult[]> {
  const answer = await api
    .post('sync', { json: { ops: rows.map(opOf) }, timeout: 60_000 })
    .json<SyncBatchAnswer>();
  return answer.results;
}

/** GET /api/sync/changes: the leads changed since the cursor (all of them without one). */
export const fetchChanges = (since: string | undefined) =>
  api.get('sync/changes', since === undefined ? {} : { searchParams: { since } }).json<SyncChanges>();
