import { type Kysely, PostgresAdapter } from 'kysely';

// Issue 19, the import wizard: an uploaded file waits here, unwritten, while the admin previews
// and maps it (any API node can preview or commit it), and the last mapping chosen for a set of
// headers is remembered for the next file with the same headers.
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('import_drafts')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    // The import it became, once committed.
    .addColumn('import_id', 'integer')
    .execute();
  await db.schema
    .createTable('import_mappings')
    // The header row's cells, normalised and joined: the same export gives the same key.
    .addColumn('header_key', 'text', (c) => c.primaryKey())
    // JSON: {columns, monthFirst, duplicates}.
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('import_mappings').execute();
  await db.schema.dropTable('import_drafts').execute();
}
