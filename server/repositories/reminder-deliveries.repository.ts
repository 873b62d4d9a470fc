import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/database';
import type { Database } from '../db/schema';

/** The scheduler's queries (docs/follow-ups.md): claim due reminders, then record the outcome. */
export function createReminderDeliveriesRepository(db: Kysely<Database>, dialect: Dialect) {
  /** Every write after a claim names the claim: a snooze, done, or a later claim voids it. */
  const claimed = (id: number, claimedAt: string) =>
    db.updateTable('reminders').where('id', '=', id).where('claimed_at', '=', claimedAt);

  return {
    /**
     * Claims up to `limit` due reminders in one statement and moves each one's next_send_at a
     * lease ahead. On SQLite the statement holds the database's write lock, so two processes
     * cannot both match a row; on PostgreSQL the inner select locks rows FOR UPDATE SKIP LOCKED,
     * and a row another node just claimed no longer matches when it is re-read. A process that
     * dies after claiming leaves next_send_at at the lease's end, when any node claims it again.
     */
    claimDue(now: string, leaseUntil: string, limit: number) {
      return db
        .updateTable('reminders')
        .set({ claimed_at: now, next_send_at: leaseUntil, attempts: sql`attempts + 1` })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('reminders')
            .select('id')
            .where('next_send_at', '<=', now)
            .where('done_at', 'is', null)
            .orderBy('next_send_at')
            .limit(limit)
            .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
        )
        .where('next_send_at', '<=', now)
        .where('done_at', 'is', null)
        .returning(['id', 'claimed_at', 'attempts', 'sent_channels'])
        .execute();
    },

    /** What a delivery needs: the reminder, its lead, and the employee it is for. */
    context(id: number) {
      return db
        .selectFrom('reminders as r')
        .innerJoin('leads as l', 'l.id', 'r.lead_id')
        .innerJoin('users as u', 'u.id', 'r.user_id')
        .select([
          'r.id',
          'r.user_id',
          'r.lead_id',
          'r.reminder_time',
          'r.note',
          'l.name as lead_name',
          'l.phone as lead_phone',
          'l.deleted_at as lead_deleted_at',
          'l.assigned_to_id',
          'u.email',
          'u.role_id',
          'u.is_active',
        ])
        .where('r.id', '=', id)
        .executeTakeFirst();
    },

    /** A channel went out: noted at once, so a retry or a re-claim does not send it again. */
    async addChannel(id: number, claimedAt: string, channels: string): Promise<void> {
      await claimed(id, claimedAt).set({ sent_channels: channels }).execute();
    },

    async markSent(id: number, claimedAt: string, sentAt: string): Promise<void> {
      await claimed(id, claimedAt)
        .set({ is_sent: 1, sent_at: sentAt, next_send_at: null, last_error: null })
        .execute();
    },

    async retryAt(id: number, claimedAt: string, at: string, error: string): Promise<void> {
      await claimed(id, claimedAt).set({ next_send_at: at, last_error: error }).execute();
    },

    /** Nothing more will be sent (stale, lead gone, employee no longer on it); Today still lists it. */
    async giveUp(id: number, claimedAt: string, reason: string): Promise<void> {
      await claimed(id, claimedAt).set({ next_send_at: null, last_error: reason }).execute();
    },
  };
}
export type ReminderDeliveriesRepository = ReturnType<typeof createReminderDeliveriesRepository>;
export type DeliveryContext = NonNullable<Awaited<ReturnType<ReminderDeliveriesRepository['context']>>>;
