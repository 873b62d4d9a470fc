import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 19: every import is recorded (history, its rejected-rows file kept for download, undo),
// and each imported lead remembers its import and what the import noted about it (a visit date
// it could not read, an email it could not use, a name it cut).
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('lead_imports')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('total_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('inserted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicates_in_file', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicates_in_system', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invalid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('warnings', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON: [{email, count}] of the leads auto-assign gave out.
    .addColumn('assigned', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('rejected_file', postgres ? 'bytea' : 'blob')
    .addColumn('undone_at', 'text')
    .execute();
  await db.schema.alterTable('leads').addColumn('import_id', 'integer').execute();
  await db.schema
    .alterTable('leads')
    .addColumn('import_note', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`create index leads_import on leads (import_id) where import_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index leads_import`.execute(db);
  await db.schema.alterTable('leads').dropColumn('import_note').execute();
  await db.schema.alterTable('leads').dropColumn('import_id').execute();
  await db.schema.dropTable('lead_imports').execute();
}
