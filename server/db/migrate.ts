import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import type { Dialect } from './database';
import * as initial from './migrations/2026-11-23-0001-initial';
import * as liveSiteVisitIndex from './migrations/2026-11-23-0002-live-site-visit-index';
import * as followUps from './migrations/2026-11-25-0301-follow-ups';
import * as leadChanges from './migrations/2026-11-25-0401-lead-changes';
import * as staff from './migrations/2026-11-25-0501-staff';
import * as statusChanges from './migrations/2026-11-25-0502-status-changes';
import * as leadImports from './migrations/2026-11-25-0601-lead-imports';
import * as leadChangesPair from './migrations/2026-11-25-0701-lead-changes-pair';
import * as leadStory from './migrations/2026-11-25-1501-lead-story';
import * as importDrafts from './migrations/2026-11-25-1601-import-drafts';
import * as importFills from './migrations/2026-11-25-1701-import-fills';

// Ordered by name; a new migration is a new file added here, never an edit of an old one.
const migrations: Record<string, Migration> = {
  '2026-11-23-0001-initial': initial,
  '2026-11-23-0002-live-site-visit-index': liveSiteVisitIndex,
  '2026-11-25-0301-follow-ups': followUps,
  '2026-11-25-0401-lead-changes': leadChanges,
  '2026-11-25-0501-staff': staff,
  '2026-11-25-0502-status-changes': statusChanges,
  '2026-11-25-0601-lead-imports': leadImports,
  '2026-11-25-0701-lead-changes-pair': leadChangesPair,
  '2026-11-25-1501-lead-story': leadStory,
  '2026-11-25-1601-import-drafts': importDrafts,
  '2026-11-25-1701-import-fills': importFills,
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
