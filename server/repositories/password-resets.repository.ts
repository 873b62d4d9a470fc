import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export function createPasswordResetsRepository(db: Kysely<Database>) {
  return {
    async insert(userId: number, tokenHash: string, expiresAt: Date, now: Date): Promise<void> {
      await db
        .insertInto('password_resets')
        .values({
          user_id: userId,
          token_hash: tokenHash,
          expires_at: expiresAt.toISOString(),
          created_at: now.toISOString(),
        })
        .execute();
    },

    /**
     * Marks the token used and answers its user, or undefined when it is unknown, used or expired.
     * One conditional update, so two requests racing with the same link cannot both succeed.
     */
    async consume(tokenHash: string, now: Date, trx: Kysely<Database> = db): Promise<number | undefined> {
      const iso = now.toISOString();
      const row = await trx
        .updateTable('password_resets')
        .set({ used_at: iso })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', iso)
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id;
    },

    find(tokenHash: string) {
      return db
        .selectFrom('password_resets')
        .select(['expires_at', 'used_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    /** Retires the user's other outstanding links once one of them has been used. */
    async retireOthers(userId: number, now: Date, trx: Kysely<Database> = db): Promise<void> {
      await trx
        .updateTable('password_resets')
        .set({ used_at: now.toISOString() })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
    },

    async deleteExpiredBefore(cutoff: Date): Promise<void> {
      await db.deleteFrom('password_resets').where('expires_at', '<', cutoff.toISOString()).execute();
    },
  };
}
export type PasswordResetsRepository = ReturnType<typeof createPasswordResetsRepository>;
