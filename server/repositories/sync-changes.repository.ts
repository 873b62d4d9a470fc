import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/database';
import type { Database } from '../db/schema';
import { chunks } from './chunks';

/** Ids per query: well under both databases' bound-variable limits. */
const CHUNK = 500;

/** Where a delta starts: the last change seq and (SQLite) the highest lead id, both committed. */
export interface SyncCursor {
  seq: number;
  leadId: number;
}

export const formatCursor = (c: SyncCursor) => `${c.seq}.${c.leadId}`;

export function parseCursor(text: string): SyncCursor {
  const [seq, leadId] = text.split('.');
  return { seq: Number(seq), leadId: Number(leadId ?? 0) };
}

/** Reads lead_changes, which the triggers of migration 0401 fill (issue 18). */
export function createSyncChangesRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /**
     * The highest seq whose transaction has committed; every lower seq has committed too (seq
     * follows commit order, see the migration). Read before the changes, so nothing committed
     * after this read is counted as seen.
     */
    async cursor(): Promise<SyncCursor> {
      if (dialect === 'postgres') {
        const row = (
          await sql<{ seq: string }>`select value as seq from sync_counter where id = 1`.execute(db)
        ).rows[0];
        return { seq: Number(row?.seq ?? 0), leadId: 0 };
      }
      const row = (
        await sql<{ seq: number; lead_id: number }>`select
          (select coalesce(max(seq), 0) from lead_changes) as seq,
          (select coalesce(max(id), 0) from leads) as lead_id`.execute(db)
      ).rows[0];
      return { seq: Number(row?.seq ?? 0), leadId: Number(row?.lead_id ?? 0) };
    },

    /**
     * SQLite: the user's live leads created in (since, upTo] by id (new leads are not logged, see
     * the migration). PostgreSQL logs inserts, so none here.
     */
    async newLeadIds(userId: number, since: number, upTo: number): Promise<number[]> {
      if (dialect === 'postgres' || upTo <= since) return [];
      const rows = await db
        .selectFrom('leads')
        .select('id')
        .where('assigned_to_id', '=', userId)
        .where('deleted_at', 'is', null)
        .where('id', '>', since)
        .where('id', '<=', upTo)
        .execute();
      return rows.map((r) => r.id);
    },

    /** Leads that changed for this user in (since, upTo]. */
    async changedLeadIds(userId: number, since: number, upTo: number): Promise<number[]> {
      const rows = await db
        .selectFrom('lead_changes')
        .select('lead_id')
        .distinct()
        .where('user_id', '=', userId)
        .where('seq', '>', since)
        .where('seq', '<=', upTo)
        .execute();
      return rows.map((r) => r.lead_id);
    },

    /**
     * Deletes the rows that a newer row of the same (employee, lead) pair makes redundant, in seq
     * windows of `window` so no statement holds the write lock for long: a delta lists a lead once
     * however many of its rows lie above the cursor, and the newest row of every pair stays, so
     * every answer is the same afterwards, and so is the cursor (on SQLite the highest seq, which
     * is always the newest row of its pair). Option-list changes are the pair (0, 0). Returns the
     * number of rows deleted.
     */
    async pruneSuperseded(window = 5_000, pause: () => Promise<void> = async () => {}): Promise<number> {
      const bounds = await db
        .selectFrom('lead_changes')
        .select((eb) => [eb.fn.min('seq').as('low'), eb.fn.max('seq').as('high')])
        .executeTakeFirst();
      const low = Number(bounds?.low ?? 0);
      const high = Number(bounds?.high ?? 0);
      let deleted = 0;
      for (let from = low - 1; from < high; from += window) {
        const result = await db
          .deleteFrom('lead_changes')
          .where('seq', '>', from)
          .where('seq', '<=', Math.min(from + window, high))
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('lead_changes as newer')
                .select(sql.lit(1).as('one'))
                .whereRef('newer.user_id', '=', 'lead_changes.user_id')
                .whereRef('newer.lead_id', '=', 'lead_changes.lead_id')
                .whereRef('newer.seq', '>', 'lead_changes.seq'),
            ),
          )
          .executeTakeFirst();
        deleted += Number(result.numDeletedRows);
        await pause();
      }
      return deleted;
    },

    async optionsChanged(since: number, upTo: number): Promise<boolean> {
      const row = await db
        .selectFrom('lead_changes')
        .select('seq')
        .where('user_id', '=', 0)
        .where('seq', '>', since)
        .where('seq', '<=', upTo)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
export type SyncChangesRepository = ReturnType<typeof createSyncChangesRepository>;

/** `ids` in parts the delta refresh reads at once. */
export function idChunks<T>(items: readonly T[]): T[][] {
  return chunks(items, CHUNK);
}
