import { type Kysely, PostgresAdapter, sql } from 'kysely';

// A lead's timeline (issue 17) shows edits of its name: who renamed it, from what, and when.
// The timeline and the export read a lead's reminders by lead.
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('lead_name_changes')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    // No foreign keys, as lead_status_changes: leads are only ever soft-deleted, and a log row
    // should not stop a table being cleared.
    .addColumn('lead_id', 'integer', (c) => c.notNull())
    .addColumn('from_name', 'text', (c) => c.notNull())
    .addColumn('to_name', 'text', (c) => c.notNull())
    .addColumn('by_user_id', 'integer')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await sql`create index lead_name_changes_lead on lead_name_changes (lead_id, at)`.execute(db);
  await sql`create index reminders_lead on reminders (lead_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index reminders_lead`.execute(db);
  await db.schema.dropTable('lead_name_changes').execute();
}
