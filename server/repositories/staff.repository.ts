import { type Kysely, PostgresAdapter, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../db/schema';
import { chunks } from './chunks';

type Trx = Kysely<Database>;

const ID_BATCH = 1000;

/** Accounts, their activity and lead moves for the Employees screen (issue 17). */
export function createStaffRepository(db: Kysely<Database>) {
  return {
    /** Every account with its open-lead count and distinct leads touched since `since`. */
    async list(since: string, trx: Trx = db) {
      const users = await trx
        .selectFrom('users')
        .select([
          'id',
          'email',
          'role_id',
          'contact',
          'aadhaar_last4',
          'is_active',
          'last_sign_in_at',
          (eb) =>
            eb
              .selectFrom('leads')
              .select(eb.fn.countAll<number>().as('n'))
              .whereRef('leads.assigned_to_id', '=', 'users.id')
              .where('leads.deleted_at', 'is', null)
              .as('open_leads'),
        ])
        .orderBy('email')
        .execute();
      // A touch is a note (lead_notes, by author and time: indexed) or a bare status move, which
      // only updates the lead's status record.
      const touched = await sql<{ author: string; n: number }>`
        select author, count(distinct lead_id) as n from (
          select created_by as author, lead_id from lead_notes where created_on >= ${since}
          union all
          select last_updated_by as author, lead_id from lead_statuses where last_updated_on >= ${since}
        ) t group by author`.execute(trx);
      const byAuthor = new Map(touched.rows.map((r) => [r.author.toLowerCase(), Number(r.n)]));
      return users.map((u) => ({
        ...u,
        open_leads: Number(u.open_leads ?? 0),
        touched: byAuthor.get(u.email.toLowerCase()) ?? 0,
      }));
    },

    async countActiveAdmins(trx: Trx): Promise<number> {
      const row = await trx
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('role_id', '=', 1)
        .where('is_active', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Flips the active flag and bumps the token version: every token issued before dies. */
    async setActive(id: number, active: boolean, trx: Trx): Promise<void> {
      await trx
        .updateTable('users')
        .set((eb) => ({ is_active: active ? 1 : 0, token_version: eb('token_version', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },

    async touchSignIn(id: number, at: string): Promise<void> {
      await db.updateTable('users').set({ last_sign_in_at: at }).where('id', '=', id).execute();
    },

    /**
     * The live leads `holderId` holds, by id, or just those of `ids`, held until the caller's
     * transaction ends (PostgreSQL row locks; SQLite's write transactions run one at a time).
     */
    async heldLeadIds(holderId: number, trx: Trx, ids?: readonly number[]): Promise<number[]> {
      const lock = <O>(query: SelectQueryBuilder<Database, 'leads', O>) =>
        trx.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query;
      const held = trx
        .selectFrom('leads')
        .select('id')
        .where('assigned_to_id', '=', holderId)
        .where('deleted_at', 'is', null);
      if (!ids) {
        const rows = await lock(held.orderBy('id')).execute();
        return rows.map((r) => r.id);
      }
      const found: number[] = [];
      for (const part of chunks(ids, ID_BATCH)) {
        const rows = await lock(held.where('id', 'in', part)).execute();
        for (const r of rows) found.push(r.id);
      }
      return found.sort((a, b) => a - b);
    },

    /**
     * Moves leads still held by `fromId` to `toId` and records each move; answers how many moved.
     * The `assigned_to_id = fromId` condition is what keeps two moves of one lead from both winning.
     */
    async move(ids: readonly number[], fromId: number, toId: number, byId: number, at: string, trx: Trx) {
      let moved = 0;
      for (const part of chunks(ids, ID_BATCH)) {
        const result = await trx
          .updateTable('leads')
          .set({ assigned_to_id: toId, assigned_date: at })
          .where('id', 'in', part)
          .where('assigned_to_id', '=', fromId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        moved += Number(result.numUpdatedRows);
        // 6 columns a row: 166 rows stay under SQLite's 999 bound parameters.
        for (const rows of chunks(part, 160)) {
          await trx
            .insertInto('lead_assignments')
            .values(
              rows.map((lead_id) => ({
                lead_id,
                from_user_id: fromId,
                to_user_id: toId,
                by_user_id: byId,
                at,
              })),
            )
            .execute();
        }
      }
      return moved;
    },
  };
}
export type StaffRepository = ReturnType<typeof createStaffRepository>;
