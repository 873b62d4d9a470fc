import type { Kysely } from 'kysely';
import type { Database, OptionTableName } from '../db/schema';

export function createOptionsRepository(db: Kysely<Database>) {
  return {
    list(table: OptionTableName) {
      return db.selectFrom(table).select(['id', 'name']).orderBy('sort_order').orderBy('id').execute();
    },
    async seedIfEmpty(table: OptionTableName, names: readonly string[]): Promise<void> {
      const existing = await db.selectFrom(table).select('id').limit(1).executeTakeFirst();
      if (existing) return;
      await db
        .insertInto(table)
        .values(names.map((name, i) => ({ name, sort_order: i + 1 })))
        .execute();
    },
  };
}
export type OptionsRepository = ReturnType<typeof createOptionsRepository>;
