import { type Kysely, PostgresAdapter } from 'kysely';
import type { Database, OptionTableName } from '../db/schema';

type Trx = Kysely<Database>;

export interface StatusFields {
  call_status_id: number;
  client_status_id: number;
  location_id: number | null;
  configuration_id: number | null;
  notes: string;
  call_date_time: string | null;
}

export function createLeadStatusRepository(db: Kysely<Database>) {
  return {
    /** A live (not deleted) lead with the column that decides who may touch it. */
    findLiveLead(id: number, trx: Trx = db) {
      return trx
        .selectFrom('leads')
        .select(['id', 'name', 'assigned_to_id'])
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    /**
     * findLiveLead inside a write's transaction, holding the row until it commits: a reassignment
     * of the same lead (issue 17) waits for the write, or the write sees the new holder. SQLite's
     * transactions are already one at a time; PostgreSQL needs the row lock.
     */
    lockLiveLead(id: number, trx: Trx) {
      const query = trx
        .selectFrom('leads')
        .select(['id', 'name', 'assigned_to_id'])
        .where('id', '=', id)
        .where('deleted_at', 'is', null);
      return (
        trx.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query
      ).executeTakeFirst();
    },

    findByLead(leadId: number, trx: Trx = db) {
      return trx.selectFrom('lead_statuses').selectAll().where('lead_id', '=', leadId).executeTakeFirst();
    },

    async optionExists(table: OptionTableName, id: number, trx: Trx = db): Promise<boolean> {
      return (await trx.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },

    optionName(table: OptionTableName, id: number, trx: Trx = db) {
      return trx
        .selectFrom(table)
        .select('name')
        .where('id', '=', id)
        .executeTakeFirst()
        .then((r) => r?.name);
    },

    /**
     * Creates the lead's one status record or updates it (lead_id is unique). An upsert rather
     * than read-then-insert, so two first notes for one lead arriving together both land.
     */
    async upsert(leadId: number, fields: StatusFields, actor: string, now: string, trx: Trx = db) {
      return trx
        .insertInto('lead_statuses')
        .values({
          lead_id: leadId,
          ...fields,
          client_priority_id: 1,
          token_id: 1,
          created_by: actor,
          created_on: now,
          last_updated_by: actor,
          last_updated_on: now,
        })
        .onConflict((oc) =>
          oc.column('lead_id').doUpdateSet({ ...fields, last_updated_by: actor, last_updated_on: now }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async setClientStatus(
      id: number,
      clientStatusId: number,
      notes: string | null,
      actor: string,
      now: string,
      trx: Trx = db,
    ) {
      return trx
        .updateTable('lead_statuses')
        .set({
          client_status_id: clientStatusId,
          last_updated_by: actor,
          last_updated_on: now,
          ...(notes !== null ? { notes } : {}),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    appendNote(
      row: { lead_id: number; lead_status_id: number } & StatusFields,
      actor: string,
      now: string,
      trx: Trx = db,
    ) {
      return trx
        .insertInto('lead_notes')
        .values({ ...row, created_by: actor, created_on: now })
        .returning('id')
        .executeTakeFirstOrThrow();
    },

    /** The lead's notes, newest first, with the option names beside their ids. */
    history(leadId: number) {
      return db
        .selectFrom('lead_notes as n')
        .leftJoin('call_statuses as cs', 'cs.id', 'n.call_status_id')
        .leftJoin('client_statuses as cl', 'cl.id', 'n.client_status_id')
        .leftJoin('locations as l', 'l.id', 'n.location_id')
        .leftJoin('configurations as c', 'c.id', 'n.configuration_id')
        .select([
          'n.id',
          'n.lead_id',
          'n.lead_status_id',
          'n.notes',
          'n.call_date_time',
          'n.call_status_id',
          'cs.name as call_stat',
          'n.client_status_id',
          'cl.name as client_stat',
          'n.location_id',
          'l.name as location_name',
          'n.configuration_id',
          'c.name as configuration_type',
          'n.created_by',
          'n.created_on',
        ])
        .where('n.lead_id', '=', leadId)
        .orderBy('n.created_on', 'desc')
        .orderBy('n.id', 'desc')
        .execute();
    },
  };
}
export type LeadStatusRepository = ReturnType<typeof createLeadStatusRepository>;
