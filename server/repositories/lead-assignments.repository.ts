import { type Kysely, sql } from 'kysely';
import { Role } from '../../contract/roles';
import type { Database } from '../db/schema';
import { chunks } from './chunks';

// Who holds which lead (DESIGN.md §4, spec §4): the loads auto-assign balances, the all-or-nothing
// assignment of unassigned leads, and its record for the leads' timelines (issue 17).

type Trx = Kysely<Database>;
const ID_BATCH = 1000;

export function createLeadAssignmentsRepository(db: Kysely<Database>) {
  return {
    /**
     * Open (live, assigned) leads of every active employee, zero included, lowest id first:
     * the seed of the balanced auto-assign (DESIGN.md §4).
     */
    async employeeLoads(trx: Trx = db): Promise<{ id: number; open: number }[]> {
      const rows = await trx
        .selectFrom('users')
        .leftJoin('leads', (join) =>
          join.onRef('leads.assigned_to_id', '=', 'users.id').on('leads.deleted_at', 'is', null),
        )
        .select(['users.id', (eb) => eb.fn.count<number>('leads.id').as('open')])
        .where('users.role_id', '=', Role.Employee)
        .where('users.is_active', '=', 1)
        .groupBy('users.id')
        .orderBy('users.id')
        .execute();
      return rows.map((r) => ({ id: r.id, open: Number(r.open) }));
    },

    /**
     * Assigns the leads that are live and still unassigned; answers how many changed. The
     * `assigned_to_id is null` condition is what stops two admins from both winning a lead.
     */
    async assignUnassigned(
      ids: readonly number[],
      employeeId: number,
      date: string,
      trx: Trx,
    ): Promise<number> {
      let changed = 0;
      for (const part of chunks(ids, ID_BATCH)) {
        const result = await trx
          .updateTable('leads')
          .set({ assigned_to_id: employeeId, assigned_date: date })
          .where('id', 'in', part)
          .where('assigned_to_id', 'is', null)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        changed += Number(result.numUpdatedRows);
      }
      return changed;
    },

    /** Records a first assignment of each of these leads for their timelines (issue 17). */
    async recordAssignments(ids: readonly number[], toId: number, byId: number, at: string, trx: Trx) {
      for (const part of chunks(ids, ID_BATCH)) {
        await trx
          .insertInto('lead_assignments')
          .columns(['lead_id', 'from_user_id', 'to_user_id', 'by_user_id', 'at'])
          .expression((eb) =>
            eb
              .selectFrom('leads')
              // Typed casts: PostgreSQL reads an untyped parameter in a select list as text.
              .select([
                'leads.id',
                sql<null>`cast(null as integer)`.as('from_user_id'),
                sql<number>`cast(${toId} as integer)`.as('to_user_id'),
                sql<number>`cast(${byId} as integer)`.as('by_user_id'),
                sql<string>`cast(${at} as text)`.as('at'),
              ])
              .where('leads.id', 'in', part),
          )
          .execute();
      }
    },

    /** The live leads among these ids, with their assignee's email (null when unassigned). */
    async assignees(ids: readonly number[]): Promise<{ id: number; name: string; email: string | null }[]> {
      const out: { id: number; name: string; email: string | null }[] = [];
      for (const part of chunks(ids, ID_BATCH)) {
        const rows = await db
          .selectFrom('leads')
          .leftJoin('users', 'users.id', 'leads.assigned_to_id')
          .select(['leads.id', 'leads.name', 'users.email'])
          .where('leads.id', 'in', part)
          .where('leads.deleted_at', 'is', null)
          .execute();
        out.push(...rows);
      }
      return out;
    },
  };
}
export type LeadAssignmentsRepository = ReturnType<typeof createLeadAssignmentsRepository>;
