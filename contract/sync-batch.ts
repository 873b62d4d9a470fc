import type { Lead } from './leads';
import type { CallStatusOption, ClientStatusOption, ConfigurationOption, LocationOption } from './options';

// Batched sync and delta refresh (issue 18): POST /api/sync and GET /api/sync/changes. The zod
// schemas are in sync-batch.schema.ts, so the web bundle takes these types without zod.

/** At most this many ops per POST /api/sync; the outbox sends more in several batches. */
export const SYNC_MAX_OPS = 100;
/** The body limit of POST /api/sync (the server's limit for every JSON body). */
export const SYNC_MAX_BYTES = 1024 * 1024;

/** The single calls a batch op stands for (the outbox's kinds, contract/sync.ts). */
export const syncOpKinds = ['status', 'note', 'reminder', 'lead', 'reminder-update'] as const;
export type SyncOpKind = (typeof syncOpKinds)[number];

/**
 * One outbox row: `key` is its id (the Idempotency-Key its single call would carry), `body` the
 * single call's body. `leadId` names the lead the op concerns when the body does not (a status
 * change's lead is in its path); a negative id is a lead added offline, which a 'lead' op earlier
 * in the batch creates (that op's own `leadId` is the temporary id).
 */
export interface SyncOp {
  key: string;
  kind: SyncOpKind;
  leadId?: number;
  body: Record<string, unknown>;
}

/** What the single call answered: its HTTP status and its JSON body (problem JSON when it failed). */
export interface SyncResult {
  key: string;
  status: number;
  body: unknown;
}

export interface SyncBatchAnswer {
  results: SyncResult[];
}

/** An op held behind an op of its lead that was not applied: nothing was done; send it again later. */
export const SYNC_HELD_STATUS = 424;

export interface SyncOptionLists {
  callStatuses: CallStatusOption[];
  clientStatuses: ClientStatusOption[];
  locations: LocationOption[];
  configurations: ConfigurationOption[];
}

export interface SyncChanges {
  /** The caller's leads added or changed since the cursor (all of them without a cursor). */
  leads: Lead[];
  /** Ids of leads that left the caller since the cursor: reassigned or deleted. */
  removed: number[];
  /** The option lists, on the first call and when one of them changed. */
  options?: SyncOptionLists;
  /** True when this is the whole set (no cursor, or an unknown one): drop cached leads not in it. */
  full: boolean;
  /** Pass back as `since` next time. */
  cursor: string;
}

export const syncBatchMessages = {
  held: (key: string) => `Waits for change ${key}, which was not applied.`,
  waitsForLead: 'Waits for the new lead it belongs to.',
  duplicateKey: 'Each op needs its own key.',
  missingId: 'This change does not say which lead or reminder it is for.',
} as const;
