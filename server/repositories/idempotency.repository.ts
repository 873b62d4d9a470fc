import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/database';
import type { Database } from '../db/schema';

export interface IdempotencyClaim {
  userId: number;
  key: string;
  method: string;
  path: string;
  bodyHash: string;
}

export function createIdempotencyRepository(db: Kysely<Database>) {
  return {
    /**
     * Inserts the key's row with no answer yet. The primary key (user_id, key) is the guard: of
     * two requests with one key, on one node or several, exactly one insert succeeds.
     */
    async claim(claim: IdempotencyClaim, now: string): Promise<boolean> {
      try {
        await db
          .insertInto('idempotency_keys')
          .values({
            user_id: claim.userId,
            key: claim.key,
            method: claim.method,
            path: claim.path,
            body_hash: claim.bodyHash,
            status_code: null,
            response_body: null,
            created_at: now,
          })
          .execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    find(userId: number, key: string) {
      return db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .executeTakeFirst();
    },

    async complete(userId: number, key: string, statusCode: number, body: string): Promise<void> {
      await db
        .updateTable('idempotency_keys')
        .set({ status_code: statusCode, response_body: body })
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .execute();
    },

    /** Frees a key whose request did not finish (5xx), so a retry runs it again. */
    async release(userId: number, key: string): Promise<void> {
      await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).execute();
    },

    /** Removes one stale row (expired, or abandoned mid-flight by a node that died). */
    async removeIfCreatedAt(userId: number, key: string, createdAt: string): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .where('created_at', '=', createdAt)
        .execute();
    },

    async removeOlderThan(cutoff: string): Promise<void> {
      await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).execute();
    },
  };
}
export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
