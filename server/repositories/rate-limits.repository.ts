import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

// Counters live in the database so several API nodes share them (DESIGN.md §1).
export function createRateLimitsRepository(db: Kysely<Database>) {
  return {
    /** Counts one hit in the fixed window that starts at `windowStart`; answers the count so far. */
    async hit(key: string, windowStart: number): Promise<number> {
      const row = await db
        .insertInto('rate_limits')
        .values({ key, count: 1, window_start: windowStart })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => ({
            count: eb
              .case()
              .when('rate_limits.window_start', '=', windowStart)
              .then(eb('rate_limits.count', '+', 1))
              .else(1)
              .end(),
            window_start: windowStart,
          })),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async peek(key: string, windowStart: number): Promise<number> {
      const row = await db
        .selectFrom('rate_limits')
        .select('count')
        .where('key', '=', key)
        .where('window_start', '=', windowStart)
        .executeTakeFirst();
      return row ? Number(row.count) : 0;
    },
    async clear(key: string): Promise<void> {
      await db.deleteFrom('rate_limits').where('key', '=', key).execute();
    },
    async clearPrefix(prefix: string, trx: Kysely<Database> = db): Promise<void> {
      const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      await trx
        .deleteFrom('rate_limits')
        .where(sql<boolean>`${sql.ref('key')} like ${pattern} escape '\\'`)
        .execute();
    },
  };
}
export type RateLimitsRepository = ReturnType<typeof createRateLimitsRepository>;
