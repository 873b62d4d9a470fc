import type { Kysely } from 'kysely';
import type { Database, LeadUpdate } from '../db/schema';

// The Leads List's writes (spec §2); its reads are leads.repository's. A soft-deleted row stays
// in the table with its status history but leaves every list.
export function createLeadsAdminRepository(db: Kysely<Database>) {
  return {
    /** Answers how many live rows changed (0: unknown or deleted). */
    async update(id: number, values: LeadUpdate): Promise<number> {
      const result = await db
        .updateTable('leads')
        .set(values)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async softDelete(id: number, now: Date): Promise<number> {
      const result = await db
        .updateTable('leads')
        .set({ deleted_at: now.toISOString() })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
export type LeadsAdminRepository = ReturnType<typeof createLeadsAdminRepository>;
