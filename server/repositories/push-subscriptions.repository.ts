import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface NewPushSubscription {
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export function createPushSubscriptionsRepository(db: Kysely<Database>) {
  return {
    /**
     * One row per endpoint: subscribing again refreshes the keys, and an endpoint another user
     * had on this device becomes the caller's (the browser holds one subscription per origin).
     */
    async upsert(s: NewPushSubscription, now: string): Promise<void> {
      await db
        .insertInto('push_subscriptions')
        .values({
          user_id: s.userId,
          endpoint: s.endpoint,
          p256dh: s.p256dh,
          auth: s.auth,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .column('endpoint')
            .doUpdateSet({ user_id: s.userId, p256dh: s.p256dh, auth: s.auth, updated_at: now }),
        )
        .execute();
    },

    async deleteForUser(userId: number, endpoint: string): Promise<void> {
      await db
        .deleteFrom('push_subscriptions')
        .where('user_id', '=', userId)
        .where('endpoint', '=', endpoint)
        .execute();
    },

    /** A push service said the endpoint is gone (404/410). */
    async deleteById(id: number): Promise<void> {
      await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
    },

    listForUser(userId: number) {
      return db
        .selectFrom('push_subscriptions')
        .select(['id', 'endpoint', 'p256dh', 'auth'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
    },
  };
}
export type PushSubscriptionsRepository = ReturnType<typeof createPushSubscriptionsRepository>;
export type StoredPushSubscription = Awaited<ReturnType<PushSubscriptionsRepository['listForUser']>>[number];
