import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Config } from '../config';
import type { Database } from './schema';

export interface Reader {
  db: Kysely<Database>;
  /**
   * A mark that changes whenever anything was committed to the database since it was last taken,
   * by this process or another node. Take it before a read: an answer cached under it stays
   * right for as long as the mark does (an answer newer than its mark is only refreshed early).
   */
  version(): Promise<string>;
  /** The same mark without waiting, where taking it needs no round trip (SQLite). */
  versionNow?: () => string;
  close(): Promise<void>;
}

/**
 * The connection dashboard reads go through. Kysely's SQLite driver has one connection, so
 * while a 100,000-row import holds it in a transaction every other query would wait; a second,
 * read-only connection reads the last committed state (WAL) meanwhile. PostgreSQL has a pool.
 */
export function openReader(database: Config['database'], db: Kysely<Database>): Reader {
  if (database.kind !== 'sqlite') {
    return {
      db,
      // Two equal snapshots see the same committed transactions, so nothing changed in between;
      // read-only transactions take no transaction id and leave it alone. (PostgreSQL 13+.)
      version: async () => {
        const { rows } = await sql<{ v: string }>`select pg_current_snapshot()::text as v`.execute(db);
        return rows[0]!.v;
      },
      close: async () => {},
    };
  }
  // The writer has run the migrations and switched to WAL before this opens.
  const sqlite = new SQLite(database.file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  // Changes whenever another connection (the writer, another process) commits: a few µs.
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const reader = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db: reader,
    version: async () => String(dataVersion.get()),
    versionNow: () => String(dataVersion.get()),
    close: () => reader.destroy(),
  };
}
