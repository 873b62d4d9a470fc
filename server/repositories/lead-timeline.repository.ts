import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Everything recorded about one lead, each table's rows in order (issue 17's timeline). */
export function createLeadTimelineRepository(db: Kysely<Database>) {
  return {
    /** The live lead's own facts: who added it, from which import, who holds it. */
    lead(id: number) {
      return db
        .selectFrom('leads')
        .leftJoin('lead_imports', 'lead_imports.id', 'leads.import_id')
        .select([
          'leads.id',
          'leads.assigned_to_id',
          'leads.assigned_date',
          'leads.created_at',
          'leads.created_by',
          'leads.import_id',
          'lead_imports.file_name',
          'lead_imports.created_by as import_created_by',
        ])
        .where('leads.id', '=', id)
        .where('leads.deleted_at', 'is', null)
        .executeTakeFirst();
    },

    assignments(leadId: number) {
      return db
        .selectFrom('lead_assignments')
        .select(['id', 'from_user_id', 'to_user_id', 'by_user_id', 'at'])
        .where('lead_id', '=', leadId)
        .orderBy('at')
        .orderBy('id')
        .execute();
    },

    statusChanges(leadId: number) {
      return db
        .selectFrom('lead_status_changes as c')
        .leftJoin('client_statuses as f', 'f.id', 'c.from_status_id')
        .leftJoin('client_statuses as t', 't.id', 'c.to_status_id')
        .select([
          'c.id',
          'c.from_status_id',
          'f.name as from_name',
          'c.to_status_id',
          't.name as to_name',
          'c.changed_by',
          'c.changed_at',
        ])
        .where('c.lead_id', '=', leadId)
        .orderBy('c.changed_at')
        .orderBy('c.id')
        .execute();
    },

    notes(leadId: number) {
      return db
        .selectFrom('lead_notes as n')
        .leftJoin('call_statuses as cs', 'cs.id', 'n.call_status_id')
        .leftJoin('client_statuses as cl', 'cl.id', 'n.client_status_id')
        .select([
          'n.id',
          'n.notes',
          'n.created_by',
          'n.created_on',
          'cs.name as call_stat',
          'cl.name as client_stat',
        ])
        .where('n.lead_id', '=', leadId)
        .orderBy('n.created_on')
        .orderBy('n.id')
        .execute();
    },

    reminders(leadId: number) {
      return db
        .selectFrom('reminders')
        .select([
          'id',
          'user_id',
          'employee_email',
          'reminder_time',
          'note',
          'created_by',
          'created_on',
          'sent_at',
          'sent_channels',
          'done_at',
        ])
        .where('lead_id', '=', leadId)
        .orderBy('created_on')
        .orderBy('id')
        .execute();
    },

    nameChanges(leadId: number) {
      return db
        .selectFrom('lead_name_changes')
        .select(['id', 'from_name', 'to_name', 'by_user_id', 'at'])
        .where('lead_id', '=', leadId)
        .orderBy('at')
        .orderBy('id')
        .execute();
    },

    /** Fields imports filled on the lead (issue 19), with the import's file and uploader. */
    importFills(leadId: number) {
      return db
        .selectFrom('lead_import_fills')
        .innerJoin('lead_imports', 'lead_imports.id', 'lead_import_fills.import_id')
        .select([
          'lead_import_fills.id',
          'lead_import_fills.at',
          'lead_import_fills.fields',
          'lead_imports.id as import_id',
          'lead_imports.file_name',
          'lead_imports.created_by',
        ])
        .where('lead_import_fills.lead_id', '=', leadId)
        .orderBy('lead_import_fills.id')
        .execute();
    },

    /** Accounts by id or by email (notes and status records keep the author's email). */
    async people(ids: readonly number[], emails: readonly string[]) {
      const lowered = [...new Set(emails.map((e) => e.toLowerCase()))];
      if (ids.length === 0 && lowered.length === 0) return [];
      return db
        .selectFrom('users')
        .select(['id', 'email'])
        .where((eb) =>
          eb.or([
            ...(ids.length > 0 ? [eb('id', 'in', [...new Set(ids)])] : []),
            ...(lowered.length > 0 ? [eb(eb.fn('lower', ['email']), 'in', lowered)] : []),
          ]),
        )
        .execute();
    },
  };
}
export type LeadTimelineRepository = ReturnType<typeof createLeadTimelineRepository>;
