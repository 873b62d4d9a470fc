import { type CreateTableBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// Runs on both SQLite and PostgreSQL: the only difference is how an auto-increment key is spelled.
function withId<T extends string>(db: Kysely<unknown>, table: CreateTableBuilder<T, never>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('users'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    // Nullable: the admin created on first start has no contact or Aadhaar on record.
    .addColumn('contact', 'text', (c) => c.unique())
    .addColumn('aadhaar_enc', 'text')
    .addColumn('aadhaar_hash', 'text', (c) => c.unique())
    .addColumn('aadhaar_last4', 'text')
    .addColumn('role_id', 'integer', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  for (const table of ['call_statuses', 'client_statuses', 'locations', 'configurations']) {
    await withId(db, db.schema.createTable(table))
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }

  await withId(db, db.schema.createTable('leads'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('visit_date_time', 'text')
    .addColumn('configuration', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('site_visit', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('interested_in', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('assigned_to_id', 'integer', (c) => c.references('users.id'))
    .addColumn('assigned_date', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('deleted_at', 'text')
    .execute();
  // One live lead per phone (DESIGN.md §4): the index, not a read-then-write check, is what makes
  // two concurrent imports or add-lead calls unable to both insert the same phone.
  await sql`create unique index leads_live_phone on leads (phone) where deleted_at is null`.execute(db);
  await sql`create index leads_assigned on leads (assigned_to_id, deleted_at)`.execute(db);
  await sql`create index leads_site_visit on leads (site_visit) where deleted_at is null`.execute(db);

  await withId(db, db.schema.createTable('lead_statuses'))
    .addColumn('lead_id', 'integer', (c) => c.notNull().unique().references('leads.id'))
    .addColumn('call_status_id', 'integer', (c) => c.notNull())
    .addColumn('client_status_id', 'integer', (c) => c.notNull())
    .addColumn('location_id', 'integer')
    .addColumn('configuration_id', 'integer')
    .addColumn('client_priority_id', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('token_id', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('call_date_time', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('last_updated_by', 'text', (c) => c.notNull())
    .addColumn('last_updated_on', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('lead_notes'))
    .addColumn('lead_id', 'integer', (c) => c.notNull().references('leads.id'))
    .addColumn('lead_status_id', 'integer', (c) => c.notNull().references('lead_statuses.id'))
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('call_status_id', 'integer', (c) => c.notNull())
    .addColumn('client_status_id', 'integer', (c) => c.notNull())
    .addColumn('location_id', 'integer')
    .addColumn('configuration_id', 'integer')
    .addColumn('call_date_time', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .execute();
  await sql`create index lead_notes_lead on lead_notes (lead_id, created_on)`.execute(db);

  await withId(db, db.schema.createTable('reminders'))
    .addColumn('lead_id', 'integer', (c) => c.notNull().references('leads.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('employee_email', 'text', (c) => c.notNull())
    .addColumn('reminder_time', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .execute();
  await sql`create index reminders_user_time on reminders (user_id, reminder_time)`.execute(db);

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('body_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('password_resets'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'settings',
    'password_resets',
    'rate_limits',
    'idempotency_keys',
    'reminders',
    'lead_notes',
    'lead_statuses',
    'leads',
    'configurations',
    'locations',
    'client_statuses',
    'call_statuses',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
