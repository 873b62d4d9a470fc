import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Follow-ups (issue 15, docs/follow-ups.md): reminders learn done, delivery and claim state, and
// Web Push subscriptions get a table. Runs on SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  const columns: [string, 'text' | 'integer', boolean][] = [
    ['done_at', 'text', false],
    ['sent_at', 'text', false],
    // When the scheduler should next try to deliver; null = nothing left to send. A claim moves
    // it a lease ahead, so a claim whose process died is picked up again once the lease is over.
    ['next_send_at', 'text', false],
    ['claimed_at', 'text', false],
    ['attempts', 'integer', true],
    // Channels already delivered ("push,mail"), so a retry sends only what is missing.
    ['sent_channels', 'text', true],
    ['last_error', 'text', false],
  ];
  for (const [name, type, notNull] of columns) {
    await db.schema
      .alterTable('reminders')
      .addColumn(name, type, (c) => (notNull ? c.notNull().defaultTo(type === 'integer' ? 0 : '') : c))
      .execute();
  }
  // Unsent reminders still ahead are armed; ones whose time already passed stay overdue, unsent.
  await sql`update reminders set next_send_at = reminder_time
    where is_sent = 0 and reminder_time > ${new Date().toISOString()}`.execute(db);
  await sql`create index reminders_next_send on reminders (next_send_at) where next_send_at is not null`.execute(
    db,
  );

  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    // One row per endpoint: an endpoint is one browser on one device (docs/follow-ups.md).
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create index push_subscriptions_user on push_subscriptions (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('push_subscriptions').ifExists().execute();
  await sql`drop index reminders_next_send`.execute(db);
  for (const name of [
    'last_error',
    'sent_channels',
    'attempts',
    'claimed_at',
    'next_send_at',
    'sent_at',
    'done_at',
  ]) {
    await db.schema.alterTable('reminders').dropColumn(name).execute();
  }
}
