import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import type { Dialect } from './database';
import * as initial from './migrations/2026-11-23-0001-initial';
import * as liveSiteVisitIndex from './migrations/2026-11-23-0002-live-site-visit-index';

// Ordered by name; a new migration is a new file added here, never an edit of an old one.
const migrations: Record<string, Migration> = {
  '2026-11-23-0001-initial': initial,
  '2026-11-23-0002-live-site-visit-index': liveSiteVisitIndex,
};

export async function migrateToLatest(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // Kysely looks for its migration tables in every schema unless told which one: on a PostgreSQL
  // database shared by several schemas (test files in parallel, several agencies) it would find
  // another schema's lock table, skip creating its own and fail. Name the current schema.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
