import { type Kysely, PostgresAdapter, sql } from 'kysely';

// The Manager's figures and a lead's timeline (issue 17) count status moves over time, but a
// lead's status record only holds its latest status. Triggers on that record log every change of
// client status, whoever makes it and through whichever path (board move, note, admin), in the
// writer's own transaction. Who and when come from the record's last_updated_by/on, which every
// write sets.
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('lead_status_changes')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('lead_id', 'integer', (c) => c.notNull())
    .addColumn('from_status_id', 'integer')
    .addColumn('to_status_id', 'integer', (c) => c.notNull())
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
  // Manager activity: moves in a period per author and leads reached per status, from the index
  // alone; timeline: a lead's moves in order.
  await sql`create index lead_status_changes_time on lead_status_changes (changed_at, changed_by, to_status_id, lead_id)`.execute(
    db,
  );
  await sql`create index lead_status_changes_lead on lead_status_changes (lead_id, changed_at)`.execute(db);
  // Manager activity and the Employees screen's "touched": notes in a period, per author, read
  // from the index alone.
  await sql`create index lead_notes_time on lead_notes (created_on, created_by, call_status_id)`.execute(db);
  // Manager campaigns: leads created in a period.
  await sql`create index leads_created on leads (created_at) where deleted_at is null`.execute(db);

  if (postgres) {
    await sql`
      create function log_lead_status_change() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' or new.client_status_id is distinct from old.client_status_id then
          insert into lead_status_changes (lead_id, from_status_id, to_status_id, changed_by, changed_at)
          values (new.lead_id, case when tg_op = 'INSERT' then null else old.client_status_id end,
                  new.client_status_id, new.last_updated_by, new.last_updated_on);
        end if;
        return new;
      end $$`.execute(db);
    await sql`
      create trigger lead_status_changed after insert or update of client_status_id on lead_statuses
      for each row execute function log_lead_status_change()`.execute(db);
  } else {
    await sql`
      create trigger lead_status_inserted after insert on lead_statuses begin
        insert into lead_status_changes (lead_id, from_status_id, to_status_id, changed_by, changed_at)
        values (new.lead_id, null, new.client_status_id, new.last_updated_by, new.last_updated_on);
      end`.execute(db);
    await sql`
      create trigger lead_status_updated after update of client_status_id on lead_statuses
      when new.client_status_id is not old.client_status_id begin
        insert into lead_status_changes (lead_id, from_status_id, to_status_id, changed_by, changed_at)
        values (new.lead_id, old.client_status_id, new.client_status_id, new.last_updated_by, new.last_updated_on);
      end`.execute(db);
  }
  // Leads that already have a status: their current one, as the first known change.
  await sql`
    insert into lead_status_changes (lead_id, from_status_id, to_status_id, changed_by, changed_at)
    select lead_id, null, client_status_id, last_updated_by, last_updated_on from lead_statuses`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop trigger lead_status_changed on lead_statuses`.execute(db);
    await sql`drop function log_lead_status_change()`.execute(db);
  } else {
    await sql`drop trigger lead_status_inserted`.execute(db);
    await sql`drop trigger lead_status_updated`.execute(db);
  }
  await sql`drop index leads_created`.execute(db);
  await sql`drop index lead_notes_time`.execute(db);
  await db.schema.dropTable('lead_status_changes').execute();
}
