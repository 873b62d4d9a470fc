import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Staff screen (issue 17): when each account last signed in, and who moved which lead to whom.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'text').execute();

  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('lead_assignments')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('lead_id', 'integer', (c) => c.notNull().references('leads.id'))
    // Null "from": the lead was unassigned; null "by": the system (never today, kept for imports).
    .addColumn('from_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('to_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('by_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  // A lead's timeline reads its own rows in order.
  await sql`create index lead_assignments_lead on lead_assignments (lead_id, at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lead_assignments').execute();
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
}
