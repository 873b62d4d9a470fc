import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** What the export adds to a page of leads: each one's last note and next open follow-up. */
export function createLeadExportRepository(db: Kysely<Database>) {
  return {
    /** The last note written on each of these leads (the highest id: notes are only appended). */
    lastNotes(leadIds: readonly number[]) {
      if (leadIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('lead_notes')
        .select(['lead_id', 'notes', 'created_by', 'created_on'])
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('lead_notes')
            .select((s) => s.fn.max('id').as('id'))
            .where('lead_id', 'in', leadIds)
            .groupBy('lead_id'),
        )
        .execute();
    },

    /** Open (not done) follow-ups on these leads, soonest first per lead. */
    openFollowUps(leadIds: readonly number[]) {
      if (leadIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('reminders')
        .select(['lead_id', 'reminder_time', 'note'])
        .where('lead_id', 'in', leadIds)
        .where('done_at', 'is', null)
        .orderBy('lead_id')
        .orderBy('reminder_time')
        .orderBy('id')
        .execute();
    },
  };
}
export type LeadExportRepository = ReturnType<typeof createLeadExportRepository>;
