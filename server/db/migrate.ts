import { type Kysely, type Migration, Migrator } from 'kysely';
import * as initial from './migrations/2026-11-23-0001-initial';

// Ordered by name; a new migration is a new file added here, never an edit of an old one.
const migrations: Record<string, Migration> = {
  '2026-11-23-0001-initial': initial,
};

export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
