import { followUpMessages } from '../../../contract/follow-ups-rules';
import { messages } from '../../../contract/messages';
import type { Problem } from '../../../contract/problem';
import type { OutboxKind } from '../../../contract/sync';
import { syncMessages } from '../../../contract/sync';

/** The four kinds of answer of DESIGN.md §5. */
export type Outcome =
  | { type: 'retry'; reason: string }
  | { type: 'auth' }
  | { type: 'needs-note'; message: string }
  | { type: 'attention'; message: string };

interface HttpFailure {
  status: number;
  problem: Partial<Problem>;
}

function httpFailure(error: unknown): HttpFailure | null {
  const e = error as { status?: unknown; problem?: unknown; response?: { status?: unknown } } | null;
  const status =
    typeof e?.status === 'number'
      ? e.status
      : typeof e?.response?.status === 'number'
        ? e.response.status
        : null;
  if (status === null) return null;
  return { status, problem: (e?.problem as Partial<Problem> | undefined) ?? {} };
}

/** Sorts a failed send into what the outbox does next. */
export function classifyFailure(kind: OutboxKind, error: unknown): Outcome {
  const failure = httpFailure(error);
  // No HTTP answer at all: offline, DNS, timeout, connection reset.
  if (!failure) return { type: 'retry', reason: error instanceof Error ? error.message : String(error) };
  const { status, problem } = failure;
  if (status === 401) return { type: 'auth' };
  // The same key is still being worked on elsewhere (another tab, a resend after a timeout).
  const inFlight = status === 409 && problem.message === syncMessages.keyInFlight;
  if (status >= 500 || status === 429 || status === 408 || inFlight) {
    return { type: 'retry', reason: problem.message || `HTTP ${status}` };
  }
  if (kind === 'status' && problem.requireNotePopup) {
    return { type: 'needs-note', message: messages.board.requireNote };
  }
  if (kind === 'status' && problem.errors && 'Notes' in problem.errors) {
    return { type: 'needs-note', message: messages.board.serverRequiresNotes };
  }
  const fallback: Record<OutboxKind, string> = {
    status: messages.board.statusFailed,
    note: messages.board.noteFailed,
    reminder: messages.board.reminderFailed,
    lead: messages.board.leadAddFailed,
    'reminder-update': followUpMessages.updateFailed,
  };
  return { type: 'attention', message: problem.message || problem.title || fallback[kind] };
}

const BASE_MS = 2_000;
const CAP_MS = 5 * 60_000;

/** Capped exponential backoff with jitter (half fixed, half random) so many phones do not retry in step. */
export function backoffDelay(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
