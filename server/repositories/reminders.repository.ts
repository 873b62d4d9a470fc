import type { Insertable, Kysely } from 'kysely';
import type { Database, ReminderTable } from '../db/schema';

export function createRemindersRepository(db: Kysely<Database>) {
  return {
    insert(reminder: Insertable<ReminderTable>) {
      return db.insertInto('reminders').values(reminder).returningAll().executeTakeFirstOrThrow();
    },

    /** The user's reminders on live leads, soonest first, with the lead's name for the list. */
    listForUser(userId: number) {
      return db
        .selectFrom('reminders as r')
        .innerJoin('leads as l', 'l.id', 'r.lead_id')
        .select([
          'r.id',
          'r.lead_id',
          'l.name as lead_name',
          'r.employee_email',
          'r.reminder_time',
          'r.note',
          'r.is_sent',
          'r.created_on',
        ])
        .where('r.user_id', '=', userId)
        .where('l.deleted_at', 'is', null)
        .orderBy('r.reminder_time')
        .orderBy('r.id')
        .execute();
    },
  };
}
export type RemindersRepository = ReturnType<typeof createRemindersRepository>;
