import type { Kysely } from 'kysely';
import type { Database, LeadUpdate } from '../db/schema';

// The Leads List's writes (spec §2); its reads are leads.repository's. A soft-deleted row stays
// in the table with its status history but leaves every list.
export function createLeadsAdminRepository(db: Kysely<Database>) {
  return {
    /**
     * Answers how many live rows changed (0: unknown or deleted). A new name is recorded for the
     * lead's timeline (issue 17) in the same transaction, with who changed it.
     */
    update(id: number, values: LeadUpdate, by: { userId: number; at: string }): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('leads')
          .select('name')
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!before) return 0;
        const result = await trx.updateTable('leads').set(values).where('id', '=', id).executeTakeFirst();
        if (values.name !== undefined && values.name !== before.name) {
          await trx
            .insertInto('lead_name_changes')
            .values({
              lead_id: id,
              from_name: before.name,
              to_name: values.name,
              by_user_id: by.userId,
              at: by.at,
            })
            .execute();
        }
        return Number(result.numUpdatedRows);
      });
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
