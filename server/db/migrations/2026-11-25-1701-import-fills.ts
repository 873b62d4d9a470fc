import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 19: an import may fill the empty fields of leads that already hold a row's phone instead
// of skipping the row. What it filled is kept per lead, so that the import's undo can empty those
// fields again (where nobody changed them since) and the lead's timeline can say what came from
// which file.
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('lead_import_fills')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    // No foreign keys, as the other log tables: leads are only ever soft-deleted.
    .addColumn('import_id', 'integer', (c) => c.notNull())
    .addColumn('lead_id', 'integer', (c) => c.notNull())
    // JSON: {column: value} of the fields this import filled, by leads' column names.
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await sql`create index lead_import_fills_import on lead_import_fills (import_id)`.execute(db);
  await sql`create index lead_import_fills_lead on lead_import_fills (lead_id)`.execute(db);
  await db.schema
    .alterTable('lead_imports')
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_imports').dropColumn('updated').execute();
  await db.schema.dropTable('lead_import_fills').execute();
}
