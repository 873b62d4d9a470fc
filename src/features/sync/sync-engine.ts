import { SYNC_HELD_STATUS, type SyncResult } from '../../../contract/sync-batch';
import type { LeadNestDb, OutboxRow } from '../../lib/db';
import { sendBatch } from './api/send-batch';
import { type RowAnswer, sendRow } from './api/send-row';
import { applyAnswer, setAside } from './apply-answer';
import { answerOf, planBatch, waitsForReminder } from './batch-plan';
import { backoffDelay, classifyFailure } from './classify';

export type SyncEvent =
  | { type: 'synced'; row: OutboxRow; answer: RowAnswer }
  | { type: 'needs-note'; row: OutboxRow; message: string }
  | { type: 'attention'; row: OutboxRow; message: string }
  | { type: 'auth' }
  | { type: 'idle' };

export interface FlushResult {
  sent: number;
  /** Why the flush stopped: nothing left, a row waiting for its retry time, a 401, or another tab flushing. */
  stopped: 'drained' | 'backoff' | 'auth' | 'busy';
}

export interface SyncEngineOptions {
  now?: () => number;
  random?: () => number;
  send?: (row: OutboxRow) => Promise<RowAnswer>;
  /** Sends many rows in one POST /api/sync (issue 18); false sends one request per row. */
  batch?: boolean;
  sendBatch?: (rows: readonly OutboxRow[]) => Promise<SyncResult[]>;
  /** How often the outbox is looked at while the app is open. */
  intervalMs?: number;
}

const LOCK_NAME = 'leadnest-outbox';

/**
 * Drains the outbox of one user's database to the API (DESIGN.md §5). Framework-free: the board
 * starts it, tests drive it against a real server with fake-indexeddb.
 */
export function createSyncEngine(db: LeadNestDb, options: SyncEngineOptions = {}) {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const send = options.send ?? sendRow;
  const sendMany = options.sendBatch ?? sendBatch;
  // Cleared when the server has no /api/sync (the agency's own backend, DESIGN.md §2): one
  // request per row then, as before.
  let batching = options.batch ?? true;
  const listeners = new Set<(event: SyncEvent) => void>();
  let running: Promise<FlushResult> | null = null;
  let again = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  // Retry timers are only set while the engine runs in a page (tests drive flush() by hand).
  let started = false;

  const emit = (event: SyncEvent) => {
    for (const listener of listeners) listener(event);
  };

  /** The next row to send: the oldest pending one whose lead exists on the server (or that creates it). */
  async function nextRow(): Promise<OutboxRow | undefined> {
    const rows = await db.outbox.orderBy('[createdAt+id]').toArray();
    return rows.find(
      (r) => r.state === 'pending' && (r.kind === 'lead' || r.leadId > 0) && !waitsForReminder(r),
    );
  }

  /** A 401: rows wait, kept, until the next sign-in resumes the engine. */
  async function pauseForAuth(sent: number): Promise<FlushResult> {
    await db.setMeta('authPaused', true);
    emit({ type: 'auth' });
    return { sent, stopped: 'auth' };
  }

  /** For timers and events: a failure (the database closed at logout, say) is logged, never left unhandled. */
  function flushInBackground(force = false): void {
    flush(force).catch((error: unknown) => console.warn('Outbox flush failed', error));
  }

  function scheduleRetry(at: number) {
    clearTimeout(retryTimer);
    if (!started) return;
    retryTimer = setTimeout(() => flushInBackground(), Math.max(0, at - now()));
  }

  async function drainSingle(force: boolean): Promise<FlushResult> {
    let sent = 0;
    if (await db.getMeta('authPaused')) return { sent, stopped: 'auth' };
    for (;;) {
      const row = await nextRow();
      if (!row) return { sent, stopped: 'drained' };
      if (!force && row.nextAttemptAt > now()) {
        scheduleRetry(row.nextAttemptAt);
        return { sent, stopped: 'backoff' };
      }
      let answer: RowAnswer;
      try {
        answer = await send(row);
      } catch (error) {
        const outcome = classifyFailure(row.kind, error);
        if (outcome.type === 'retry') {
          const attempts = row.attempts + 1;
          const nextAttemptAt = now() + backoffDelay(attempts, random);
          await db.outbox.update(row.id, { attempts, nextAttemptAt });
          scheduleRetry(nextAttemptAt);
          return { sent, stopped: 'backoff' };
        }
        if (outcome.type === 'auth') return pauseForAuth(sent);
        await setAside(db, row, outcome);
        emit({ type: outcome.type, row, message: outcome.message });
        continue;
      }
      await applyAnswer(db, row, answer);
      sent += 1;
      emit({ type: 'synced', row, answer });
    }
  }

  async function retryLater(rows: readonly OutboxRow[]): Promise<number> {
    let soonest = Number.POSITIVE_INFINITY;
    for (const row of rows) {
      const attempts = row.attempts + 1;
      const nextAttemptAt = now() + backoffDelay(attempts, random);
      await db.outbox.update(row.id, { attempts, nextAttemptAt });
      soonest = Math.min(soonest, nextAttemptAt);
    }
    return soonest;
  }

  /**
   * Sends the outbox in batches (POST /api/sync, issue 18), each result sorted as the single
   * call's answer would be. A held result (424) leaves its row as it was, to go in a later batch.
   */
  async function drainBatch(force: boolean): Promise<FlushResult> {
    let sent = 0;
    if (await db.getMeta('authPaused')) return { sent, stopped: 'auth' };
    for (;;) {
      const plan = planBatch(await db.outbox.orderBy('[createdAt+id]').toArray(), now(), force);
      if (plan.rows.length === 0) {
        if (plan.retryAt === Number.POSITIVE_INFINITY) return { sent, stopped: 'drained' };
        scheduleRetry(plan.retryAt);
        return { sent, stopped: 'backoff' };
      }
      // Rows put off by this batch's answers wait for their time, even in a forced flush.
      force = false;
      let results: SyncResult[];
      try {
        results = await sendMany(plan.rows);
      } catch (error) {
        const outcome = classifyFailure('note', error);
        if (outcome.type === 'retry') {
          scheduleRetry(await retryLater(plan.rows));
          return { sent, stopped: 'backoff' };
        }
        if (outcome.type === 'auth') return pauseForAuth(sent);
        // No batch call here (404), or one it refused as a whole: one request per row.
        batching = false;
        const rest = await drainSingle(force);
        return { ...rest, sent: sent + rest.sent };
      }
      const created = new Map<number, number>();
      const events: SyncEvent[] = [];
      let settled = 0;
      let retryAt = Number.POSITIVE_INFINITY;
      let paused = false;
      // One transaction for the whole batch's answers: each write wakes the board's live queries,
      // and 50 of them one after another redrew a 2,000-card board 50 times (seconds on a phone).
      // Events go out after it commits, so a listener never runs inside it.
      await db.transaction('rw', db.outbox, db.leads, db.meta, async () => {
        for (const [i, result] of results.entries()) {
          const sentRow = plan.rows[i];
          if (!sentRow || sentRow.id !== result.key) break;
          // A row of a lead created earlier in this batch: the outbox already holds the real id.
          const row = { ...sentRow, leadId: created.get(sentRow.leadId) ?? sentRow.leadId };
          if (result.status >= 200 && result.status < 300) {
            const answer = answerOf(row, result.body);
            await applyAnswer(db, row, answer);
            if (answer.kind === 'lead') created.set(sentRow.leadId, answer.body.leadID);
            settled += 1;
            events.push({ type: 'synced', row, answer });
            continue;
          }
          if (result.status === SYNC_HELD_STATUS) continue;
          const outcome = classifyFailure(row.kind, { status: result.status, problem: result.body });
          if (outcome.type === 'retry') {
            retryAt = Math.min(retryAt, await retryLater([row]));
          } else if (outcome.type === 'auth') {
            await db.setMeta('authPaused', true);
            events.push({ type: 'auth' });
            paused = true;
            return;
          } else {
            await setAside(db, row, outcome);
            settled += 1;
            events.push({ type: outcome.type, row, message: outcome.message });
          }
        }
      });
      for (const event of events) {
        if (event.type === 'synced') sent += 1;
        emit(event);
      }
      if (paused) return { sent, stopped: 'auth' };
      if (retryAt !== Number.POSITIVE_INFINITY) scheduleRetry(retryAt);
      // Nothing moved (every row held or put off): the next batch would be the same one.
      if (settled === 0) {
        if (retryAt === Number.POSITIVE_INFINITY) scheduleRetry(await retryLater(plan.rows));
        return { sent, stopped: 'backoff' };
      }
    }
  }

  const drain = (force: boolean) => (batching ? drainBatch(force) : drainSingle(force));

  /** One flush at a time in this tab; across tabs the Web Lock decides, and a busy tab just skips. */
  async function flushLocked(force: boolean): Promise<FlushResult> {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    if (!locks?.request) return drain(force);
    const result = await locks.request(LOCK_NAME, { ifAvailable: true }, (lock) =>
      lock ? drain(force) : null,
    );
    if (result) return result;
    // Another tab holds the outbox; look again shortly in case it finished before our row arrived.
    scheduleRetry(now() + 1_000);
    return { sent: 0, stopped: 'busy' };
  }

  /** Sends what can be sent now. `force` ignores retry times (the network just came back). */
  function flush(force = false): Promise<FlushResult> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      let result: FlushResult;
      do {
        again = false;
        result = await flushLocked(force);
        total += result.sent;
      } while (again && result.stopped === 'drained');
      emit({ type: 'idle' });
      return { ...result, sent: total };
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    db,
    flush,

    /** After a new sign-in: the rows kept through the 401 go out again. */
    async resume(): Promise<FlushResult> {
      await db.setMeta('authPaused', false);
      return flush(true);
    },

    subscribe(listener: (event: SyncEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Flushes on start, `online`, the page becoming visible, a timer, and the service worker's sync nudge. */
    start(): () => void {
      started = true;
      const onOnline = () => flushInBackground(true);
      const onVisible = () => {
        if (document.visibilityState === 'visible') flushInBackground(true);
      };
      const onWorkerMessage = (event: MessageEvent) => {
        if ((event.data as { type?: string } | null)?.type === 'SYNC_OUTBOX') flushInBackground(true);
      };
      window.addEventListener('online', onOnline);
      document.addEventListener('visibilitychange', onVisible);
      navigator.serviceWorker?.addEventListener('message', onWorkerMessage);
      const timer = setInterval(() => flushInBackground(), options.intervalMs ?? 30_000);
      flushInBackground();
      return () => {
        window.removeEventListener('online', onOnline);
        document.removeEventListener('visibilitychange', onVisible);
        navigator.serviceWorker?.removeEventListener('message', onWorkerMessage);
        clearInterval(timer);
        started = false;
        clearTimeout(retryTimer);
      };
    },

    stop(): void {
      started = false;
      clearTimeout(retryTimer);
    },
  };
}
export type SyncEngine = ReturnType<typeof createSyncEngine>;
