import type { Problem } from '../../../contract/problem';
import {
  SYNC_HELD_STATUS,
  type SyncOp,
  type SyncResult,
  syncBatchMessages,
} from '../../../contract/sync-batch';
import { problem } from '../../errors';

/** One op sent as its single call: the method, path and body that call would carry. */
export interface SingleCall {
  method: 'POST' | 'PUT';
  url: string;
  body: Record<string, unknown>;
}

/** Runs one single call with the op's key as its Idempotency-Key, and answers what it answered. */
export type Dispatch = (key: string, call: SingleCall) => Promise<{ status: number; body: unknown }>;

const heldProblem = (waitsFor: string | null): Problem & { waitsFor?: string } =>
  waitsFor === null
    ? problem(SYNC_HELD_STATUS, syncBatchMessages.waitsForLead, { title: 'Failed Dependency' })
    : {
        ...problem(SYNC_HELD_STATUS, syncBatchMessages.held(waitsFor), { title: 'Failed Dependency' }),
        waitsFor,
      };

/** The lead an op concerns as the client named it: negative for a lead added offline. */
function leadOf(op: SyncOp): number | undefined {
  if (op.leadId !== undefined) return op.leadId;
  if (op.kind === 'lead') return undefined;
  const id = Number(op.body.leadId);
  return Number.isInteger(id) && id !== 0 ? id : undefined;
}

/** The single call of spec §7 each op kind stands for. */
function singleCall(op: SyncOp, leadId: number | undefined): SingleCall | null {
  const body = leadId !== undefined && 'leadId' in op.body ? { ...op.body, leadId } : op.body;
  switch (op.kind) {
    case 'status':
      return leadId === undefined
        ? null
        : { method: 'PUT', url: `/api/LeadStatus/leads/${leadId}/status`, body };
    case 'note':
      return { method: 'POST', url: '/api/LeadStatus', body };
    case 'reminder':
      return { method: 'POST', url: '/api/LeadStatus/add-reminder', body };
    case 'lead':
      return { method: 'POST', url: '/api/Admin/leads', body };
    case 'reminder-update': {
      // Done or snooze: the reminder's id travels beside the PUT body, as the outbox keeps it.
      const { reminderId, ...rest } = op.body;
      const id = Number(reminderId);
      return Number.isInteger(id) && id > 0
        ? { method: 'PUT', url: `/api/LeadStatus/reminders/${id}`, body: rest }
        : null;
    }
  }
}

/**
 * POST /api/sync (issue 18): the ops in order, each through its own single call, so each answer
 * is exactly the single call's and each key is the same idempotency record (exactly once across
 * retries, nodes, and a batch whose answer was lost). A lead's ops apply in order: once one is not
 * applied, its lead's later ops are held (424) untouched, while other leads' ops go on. A 'lead'
 * op's temporary id is replaced by the created lead's id in the ops after it.
 */
export async function runBatch(ops: readonly SyncOp[], dispatch: Dispatch): Promise<SyncResult[]> {
  const created = new Map<number, number>();
  const blockedBy = new Map<number, string>();
  const results: SyncResult[] = [];
  for (const op of ops) {
    const named = leadOf(op);
    const blocker = named === undefined ? undefined : blockedBy.get(named);
    if (blocker !== undefined) {
      results.push({ key: op.key, status: SYNC_HELD_STATUS, body: heldProblem(blocker) });
      continue;
    }
    let leadId = named;
    if (named !== undefined && named < 0 && op.kind !== 'lead') {
      leadId = created.get(named);
      if (leadId === undefined) {
        results.push({ key: op.key, status: SYNC_HELD_STATUS, body: heldProblem(null) });
        continue;
      }
    }
    const call = singleCall(op, op.kind === 'lead' ? undefined : leadId);
    const answer = call
      ? await dispatch(op.key, call)
      : { status: 400, body: problem(400, syncBatchMessages.missingId) };
    results.push({ key: op.key, ...answer });
    const applied = answer.status < 300;
    if (applied && op.kind === 'lead' && named !== undefined && named < 0) {
      const id = (answer.body as { leadID?: unknown } | null)?.leadID;
      if (typeof id === 'number') created.set(named, id);
    }
    if (!applied && named !== undefined) blockedBy.set(named, op.key);
  }
  return results;
}
