import Dexie, { type Table } from 'dexie';
import type { Reminder } from '../../contract/lead-status';
import type { Lead } from '../../contract/leads';
import type {
  CallStatusOption,
  ClientStatusOption,
  ConfigurationOption,
  LocationOption,
} from '../../contract/options';
import type { OutboxKind } from '../../contract/sync';

/**
 * A lead as the board shows it: the last server copy (`base`) with the employee's unsynced
 * changes applied on top. Keeping `base` is what lets a rejected change be reverted by
 * rebuilding from base plus the rows still waiting (DESIGN.md §5).
 */
export interface CachedLead extends Lead {
  /** The lead as the server last answered it; null for a lead added offline (temporary negative id). */
  base: Lead | null;
  /** Outbox rows still waiting to reach the server for this lead. */
  pendingCount: number;
  /** 1 when one of its rows was refused and waits under "Needs attention" (indexable, unlike a boolean). */
  attention: 0 | 1;
}

export type OutboxState = 'pending' | 'attention';

/** One employee write waiting for the server (DESIGN.md §5); its id is the Idempotency-Key. */
export interface OutboxRow {
  id: string;
  kind: OutboxKind;
  /** The lead it concerns; negative while that lead itself is still waiting to be created. */
  leadId: number;
  /** The request body exactly as it will be sent. */
  payload: Record<string, unknown>;
  /** For moves and notes: the column the lead goes to, so the card moves before the server answers. */
  statusName?: string | null;
  /** The lead's name when the row was made, for toasts and the "Needs attention" list. */
  leadName: string;
  /** Milliseconds; strictly increasing within a tab, so rows drain in the order they were made. */
  createdAt: number;
  attempts: number;
  state: OutboxState;
  error?: string;
  nextAttemptAt: number;
}

export type OptionLists = {
  callStatuses: CallStatusOption[];
  clientStatuses: ClientStatusOption[];
  locations: LocationOption[];
  configurations: ConfigurationOption[];
};
export type OptionKey = keyof OptionLists;

export interface OptionRow<K extends OptionKey = OptionKey> {
  key: K;
  items: OptionLists[K];
}

export interface MetaValues {
  /** The caller's reminders as the server last listed them (DESIGN.md §6). */
  reminders: Reminder[];
  /** Reminders (server id, or outbox row id while waiting) a notification was already raised for. */
  notifiedReminders: string[];
  /** When the leads were last loaded from the server (ms), or absent if never. */
  leadsLoadedAt: number;
  /** A 401 paused the outbox; it resumes after the next sign-in. */
  authPaused: boolean;
  /** The push endpoint this user turned on for this device (issue 15); absent when off. */
  pushEndpoint: string;
  /** The board's one-time offer to turn notifications on was answered (either way). */
  pushPromptAnswered: boolean;
  /** GET /api/sync/changes' cursor for the cached leads (issue 18); absent means load them all. */
  syncCursor: string;
}
export type MetaKey = keyof MetaValues;

export interface MetaRow<K extends MetaKey = MetaKey> {
  key: K;
  value: MetaValues[K];
}

/** One IndexedDB database per signed-in user, so two people sharing a phone never see each other's leads. */
export class LeadNestDb extends Dexie {
  leads!: Table<CachedLead, number>;
  options!: Table<OptionRow, OptionKey>;
  outbox!: Table<OutboxRow, string>;
  meta!: Table<MetaRow, MetaKey>;

  constructor(readonly ownerEmail: string) {
    super(`leadnest-${ownerEmail.trim().toLowerCase()}`);
    this.version(1).stores({
      leads: 'leadID, pendingCount, attention',
      options: 'key',
      outbox: 'id, [createdAt+id], leadId, state',
      meta: 'key',
    });
  }

  async getMeta<K extends MetaKey>(key: K): Promise<MetaValues[K] | undefined> {
    const row = await this.meta.get(key);
    return row?.value as MetaValues[K] | undefined;
  }

  async setMeta<K extends MetaKey>(key: K, value: MetaValues[K]): Promise<void> {
    await this.meta.put({ key, value } as MetaRow);
  }

  async getOptions<K extends OptionKey>(key: K): Promise<OptionLists[K] | undefined> {
    const row = await this.options.get(key);
    return row?.items as OptionLists[K] | undefined;
  }
}

const open = new Map<string, LeadNestDb>();

/** The database of the user signed in with `email` (one instance per email per page). */
export function userDb(email: string): LeadNestDb {
  const key = email.trim().toLowerCase();
  let db = open.get(key);
  if (!db) {
    db = new LeadNestDb(key);
    open.set(key, db);
  }
  return db;
}

/**
 * At sign-out: closes the user's database for good in this page (a late write from a screen still
 * unmounting must not reopen it), and with `delete` removes it from the device.
 */
export async function releaseUserDb(email: string, options: { delete?: boolean } = {}): Promise<void> {
  const key = email.trim().toLowerCase();
  const db = open.get(key) ?? new LeadNestDb(key);
  open.delete(key);
  db.close({ disableAutoOpen: true });
  if (options.delete) await Dexie.delete(db.name);
}

/** Closes every open database (tests, and before deleting one). */
export function closeUserDbs(): void {
  for (const db of open.values()) db.close();
  open.clear();
}
