import type SQLite from 'better-sqlite3';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database, NewLead } from '../db/schema';
import { chunks } from './chunks';

// The import's bulk insert of leads (DESIGN.md §4), the hot path of an upload: on SQLite one
// prepared statement run straight on the transaction's connection, on PostgreSQL multi-row
// statements compiled once per batch shape.

type Trx = Kysely<Database>;

// SQLite allows 32766 bound variables per statement, PostgreSQL 65535: 500 rows of 12 columns
// (6000 variables) fits both, and larger statements were not faster.
const INSERT_BATCH = 500;
/** Every column an insert may set, in the order insertEach binds them. */
const LEAD_COLUMNS = [
  'name',
  'email',
  'phone',
  'visit_date_time',
  'configuration',
  'site_visit',
  'location',
  'interested_in',
  'assigned_to_id',
  'assigned_date',
  'created_at',
  'created_by',
  'deleted_at',
  'import_id',
  'import_note',
] as const satisfies readonly (keyof NewLead)[];
// A column added to the table but not to the list above fails to compile here.
const everyColumnListed: Exclude<keyof NewLead, 'id' | (typeof LEAD_COLUMNS)[number]> extends never
  ? true
  : never = true;
void everyColumnListed;

/**
 * `sqlite`: the connection under the repository's database when it is SQLite
 * (server/db/database.ts).
 */
export function createLeadInserter(sqlite?: SQLite.Database) {
  let insertStatement: SQLite.Statement | undefined;

  /**
   * SQLite inside a transaction: one prepared single-row insert per lead, run straight on the
   * connection the transaction holds, every column bound by position. About 4.3 µs a row, as
   * fast as the bare statement; building each row's column list and value array made it 6.6 µs,
   * and Kysely's 500-row statements with RETURNING took 13 µs. The transaction keeps it
   * all-or-nothing.
   */
  async function insertEach(
    leads: readonly NewLead[],
    connection: SQLite.Database,
    between?: () => Promise<void>,
  ): Promise<Set<string>> {
    insertStatement ??= connection.prepare(
      `insert into leads (${LEAD_COLUMNS.map((c) => `"${c}"`).join(', ')})
       values (${LEAD_COLUMNS.map(() => '?').join(', ')}) on conflict do nothing`,
    );
    const statement = insertStatement;
    const inserted = new Set<string>();
    for (let i = 0; i < leads.length; i++) {
      const l = leads[i]!;
      // In LEAD_COLUMNS order.
      const changes = statement.run(
        l.name,
        l.email,
        l.phone,
        l.visit_date_time ?? null,
        l.configuration,
        l.site_visit,
        l.location,
        l.interested_in,
        l.assigned_to_id ?? null,
        l.assigned_date ?? null,
        l.created_at,
        l.created_by ?? null,
        l.deleted_at ?? null,
        l.import_id ?? null,
        l.import_note ?? '',
      ).changes;
      if (changes === 1) inserted.add(l.phone);
      if (i % INSERT_BATCH === INSERT_BATCH - 1) await between?.();
    }
    await between?.();
    return inserted;
  }

  /**
   * Inserts in multi-row batches and answers the phones that went in. A phone another import
   * took since the caller's check is skipped by the live-phone unique index, not an error.
   * `between` runs after each batch (the import yields to the event loop there).
   */
  async function insertMany(
    leads: readonly NewLead[],
    trx: Trx,
    between?: () => Promise<void>,
  ): Promise<Set<string>> {
    if (sqlite && trx.isTransaction) return insertEach(leads, sqlite, between);
    const inserted = new Set<string>();
    // Kysely builds and compiles each batch's statement anew: for 500 rows × 12 columns that took
    // ~10 ms, more than the database took to run it. Batches of one size and one set of columns
    // share their SQL, so it is compiled once per call and reused with each batch's values.
    const compiledSql = new Map<string, string>();
    for (const part of chunks(leads, INSERT_BATCH)) {
      const columns = Object.keys(part[0]!) as (keyof NewLead)[];
      const uniform = part.every(
        (row) => Object.keys(row).length === columns.length && columns.every((c) => row[c] !== undefined),
      );
      const shape = `${part.length} ${columns.join(',')}`;
      const known = uniform ? compiledSql.get(shape) : undefined;
      let compiled: CompiledQuery<{ phone: string }>;
      if (known) {
        compiled = CompiledQuery.raw(
          known,
          part.flatMap((row) => columns.map((c) => row[c])),
        );
      } else {
        compiled = trx
          .insertInto('leads')
          .values(part)
          .onConflict((oc) => oc.doNothing())
          .returning('phone')
          .compile();
        if (uniform && compiled.parameters.length === part.length * columns.length)
          compiledSql.set(shape, compiled.sql);
      }
      const { rows } = await trx.executeQuery(compiled);
      for (const r of rows) inserted.add(r.phone);
      await between?.();
    }
    return inserted;
  }

  return { insertMany };
}
