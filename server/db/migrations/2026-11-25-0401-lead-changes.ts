import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Delta refresh (issue 18): every write that changes what an employee's board shows records
// (seq, lead, employee) in lead_changes, by triggers, so every code path is tracked — the status
// and note calls, the admin's assign and edits, the import, and whatever is added later — without
// any of them calling the sync code. GET /api/sync/changes answers the leads with a seq above the
// caller's cursor.
//
// The cursor must never skip a commit, so a seq is handed out in commit order:
// - SQLite has one writer at a time (even across processes on one file), so an AUTOINCREMENT key
//   given inside the writing transaction already follows commit order. New leads are not logged
//   at all: their AUTOINCREMENT ids follow commit order the same way, so the cursor also carries
//   the highest lead id seen, and a new lead is one above it. A row trigger on every insert made
//   the import's insert several times slower (bench/sync-import-cost.ts, docs/sync.md).
// - PostgreSQL: a sequence's values are handed out before commit, so a later value can commit
//   first and a reader would pass over the earlier one. Here each writing statement takes the next
//   value from a counter row instead; its row lock is held to the end of the transaction, so the
//   next writer waits for that commit before it gets a higher value. The triggers run once per
//   statement (transition tables), so an import of 100,000 leads takes the counter once.
//
// user_id 0 with lead_id 0 marks a change of the option lists.

const leadTables = ['leads', 'lead_statuses'] as const;
const optionTables = ['call_statuses', 'client_statuses', 'locations', 'configurations'] as const;

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);
  await run(sql`create table lead_changes (
    seq integer primary key autoincrement,
    lead_id integer not null,
    user_id integer not null
  )`);
  await run(sql`create index lead_changes_user_seq on lead_changes (user_id, seq)`);
  await run(sql`create trigger lead_changes_leads_update after update on leads
    begin
      insert into lead_changes (lead_id, user_id)
        select new.id, new.assigned_to_id where new.assigned_to_id is not null;
      insert into lead_changes (lead_id, user_id)
        select old.id, old.assigned_to_id
        where old.assigned_to_id is not null and old.assigned_to_id is not new.assigned_to_id;
    end`);
  await run(sql`create trigger lead_changes_leads_delete after delete on leads
    when old.assigned_to_id is not null
    begin insert into lead_changes (lead_id, user_id) values (old.id, old.assigned_to_id); end`);
  for (const [event, row] of [
    ['insert', 'new'],
    ['update', 'new'],
    ['delete', 'old'],
  ] as const) {
    await run(
      sql.raw(`create trigger lead_changes_status_${event} after ${event} on lead_statuses
        begin
          insert into lead_changes (lead_id, user_id)
            select id, assigned_to_id from leads where id = ${row}.lead_id and assigned_to_id is not null;
        end`),
    );
    for (const table of optionTables) {
      await run(
        sql.raw(`create trigger lead_changes_${table}_${event} after ${event} on ${table}
          begin insert into lead_changes (lead_id, user_id) values (0, 0); end`),
      );
    }
  }
}

/** The body of a statement trigger: takes the next seq only when the statement touched a row. */
function pgFunction(name: string, rows: string): string {
  return `create function ${name}() returns trigger language plpgsql as $$
    declare next_seq bigint;
    begin
      if not exists (${rows}) then return null; end if;
      update sync_counter set value = value + 1 where id = 1 returning value into next_seq;
      insert into lead_changes (seq, lead_id, user_id)
        select distinct next_seq, changed.lead_id, changed.user_id from (${rows}) as changed;
      return null;
    end $$`;
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create table lead_changes (
    seq bigint not null,
    lead_id integer not null,
    user_id integer not null
  )`);
  await run('create index lead_changes_user_seq on lead_changes (user_id, seq)');
  await run('create table sync_counter (id integer primary key, value bigint not null)');
  await run('insert into sync_counter (id, value) values (1, 0)');

  // Aliased r and l: in PL/pgSQL, new and old name the trigger's row variables.
  const assigned = (rows: string) =>
    `select r.id as lead_id, r.assigned_to_id as user_id from ${rows} r where r.assigned_to_id is not null`;
  const viaLead = (rows: string) =>
    `select l.id as lead_id, l.assigned_to_id as user_id from ${rows} r
     join leads l on l.id = r.lead_id where l.assigned_to_id is not null`;
  const functions: [string, string][] = [
    ['lead_changes_leads_insert', assigned('new_rows')],
    ['lead_changes_leads_update', `${assigned('new_rows')} union ${assigned('old_rows')}`],
    ['lead_changes_leads_delete', assigned('old_rows')],
    ['lead_changes_status_insert', viaLead('new_rows')],
    ['lead_changes_status_update', viaLead('new_rows')],
    ['lead_changes_status_delete', viaLead('old_rows')],
  ];
  for (const [name, rows] of functions) await run(pgFunction(name, rows));
  await run(`create function lead_changes_options() returns trigger language plpgsql as $$
    declare next_seq bigint;
    begin
      update sync_counter set value = value + 1 where id = 1 returning value into next_seq;
      insert into lead_changes (seq, lead_id, user_id) values (next_seq, 0, 0);
      return null;
    end $$`);

  const transition: Record<string, string> = {
    insert: 'referencing new table as new_rows',
    update: 'referencing old table as old_rows new table as new_rows',
    delete: 'referencing old table as old_rows',
  };
  for (const event of ['insert', 'update', 'delete'] as const) {
    const suffix = event;
    for (const table of leadTables) {
      const name = `lead_changes_${table === 'leads' ? 'leads' : 'status'}_${suffix}`;
      await run(
        `create trigger ${name} after ${event} on ${table} ${transition[event]}
         for each statement execute function ${name}()`,
      );
    }
    for (const table of optionTables) {
      await run(
        `create trigger lead_changes_${table}_${event} after ${event} on ${table}
         for each statement execute function lead_changes_options()`,
      );
    }
  }
}

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  await (isPostgres(db) ? upPostgres(db) : upSqlite(db));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  for (const event of ['insert', 'update', 'delete']) {
    for (const table of [...leadTables, ...optionTables]) {
      if (!postgres && table === 'leads' && event === 'insert') continue;
      const name = `lead_changes_${table === 'leads' ? 'leads' : table === 'lead_statuses' ? 'status' : table}_${event}`;
      await sql.raw(`drop trigger ${name}${postgres ? ` on ${table}` : ''}`).execute(db);
      if (postgres && (table === 'leads' || table === 'lead_statuses'))
        await sql.raw(`drop function ${name}()`).execute(db);
    }
  }
  if (postgres) {
    await sql`drop function lead_changes_options()`.execute(db);
    await sql`drop table sync_counter`.execute(db);
  }
  await sql`drop table lead_changes`.execute(db);
}
