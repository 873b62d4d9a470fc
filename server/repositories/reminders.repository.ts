import type { Insertable, Kysely, Updateable } from 'kysely';
import type { ReminderListStatus } from '../../contract/follow-ups';
import type { Database, ReminderTable } from '../db/schema';

export function createRemindersRepository(db: Kysely<Database>) {
  /** A user's reminders on live leads, with what the answer shows of the lead. */
  function ownReminders(userId: number) {
    return db
      .selectFrom('reminders as r')
      .innerJoin('leads as l', 'l.id', 'r.lead_id')
      .select([
        'r.id',
        'r.lead_id',
        'l.name as lead_name',
        'l.phone as lead_phone',
        'r.employee_email',
        'r.reminder_time',
        'r.note',
        'r.is_sent',
        'r.created_on',
        'r.done_at',
        'r.sent_at',
        'r.sent_channels',
      ])
      .where('r.user_id', '=', userId)
      .where('l.deleted_at', 'is', null);
  }

  return {
    insert(reminder: Insertable<ReminderTable>) {
      return db.insertInto('reminders').values(reminder).returningAll().executeTakeFirstOrThrow();
    },

    /**
     * The user's reminders on live leads, soonest first. `due`: time passed, not done;
     * `upcoming`: time ahead, not done; `all` (or none): every one (contract/follow-ups.ts).
     */
    listForUser(userId: number, status: ReminderListStatus = 'all', now = new Date().toISOString()) {
      return ownReminders(userId)
        .$if(status === 'due', (q) => q.where('r.done_at', 'is', null).where('r.reminder_time', '<=', now))
        .$if(status === 'upcoming', (q) =>
          q.where('r.done_at', 'is', null).where('r.reminder_time', '>', now),
        )
        .orderBy('r.reminder_time')
        .orderBy('r.id')
        .execute();
    },

    findOwn(userId: number, id: number) {
      return ownReminders(userId).where('r.id', '=', id).executeTakeFirst();
    },

    async update(id: number, patch: Updateable<ReminderTable>): Promise<void> {
      await db.updateTable('reminders').set(patch).where('id', '=', id).execute();
    },
  };
}
export type RemindersRepository = ReturnType<typeof createRemindersRepository>;
export type OwnReminderRow = NonNullable<Awaited<ReturnType<RemindersRepository['findOwn']>>>;
