import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { createPrivateFile } from './data-dir';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * SQLite: the one connection Kysely runs everything on, for a bulk write inside a Kysely
   * transaction (which has the connection to itself until it ends). Nothing else uses it.
   */
  sqlite?: SQLite.Database;
  /**
   * Runs a large write (an import) so that its commit does not also pay for copying the whole
   * write from the WAL into the database file: that copy follows on the next turn of the event
   * loop, so a caller that wraps everything up to its answer has sent the answer by then.
   */
  bulkWrite<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** SQLite's own default: checkpoint once the WAL passes this many pages. */
const WAL_AUTOCHECKPOINT_PAGES = 1000;

/**
 * Checkpoints run by a thread of their own on its own connection: copying a 100,000-row import
 * from the WAL into the database file and syncing it held the API thread for about 40 ms.
 */
function checkpointThread(file: string) {
  let worker: Worker | null = null;
  let closed = false;
  return {
    /** Asks the thread for a PASSIVE checkpoint. */
    run(): void {
      if (closed) return;
      if (!worker) {
        // A plain path, not a URL: see createParseWorkers.
        worker = new Worker(path.join(import.meta.dirname, 'checkpoint.worker.mjs'), {
          workerData: { file },
        });
        // Checkpoints are housekeeping: an idle thread must not keep the process alive.
        worker.unref();
        // A thread that failed to start is started again next time; nothing is lost meanwhile
        // (the data is in the WAL, and the next checkpoint copies it).
        worker.on('error', () => {
          worker = null;
        });
      }
      worker.postMessage('checkpoint');
    },
    async close(): Promise<void> {
      closed = true;
      await worker?.terminate();
      worker = null;
    },
  };
}

/**
 * SQLite checkpoints inside the commit that takes the WAL past its limit: after a 100,000-row
 * import that copied ~15,000 pages and synced the file (about 35 ms of a 0.9 s upload) before
 * the admin got the answer, on the API thread. Held back during the work, it is handed to the
 * checkpoint thread on the next turn of the event loop instead (the import wraps its whole
 * upload, so its answer has been written by then). PASSIVE: it waits for no reader, and
 * whatever a reader still needs is copied by a later checkpoint.
 */
function deferredCheckpoints(
  database: SQLite.Database,
  checkpoints: ReturnType<typeof checkpointThread>,
): Db['bulkWrite'] {
  return async (work) => {
    database.pragma('wal_autocheckpoint = 0');
    try {
      return await work();
    } finally {
      database.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      setImmediate(() => checkpoints.run());
    }
  };
}

// COUNT(*) and bigint columns arrive as strings from pg; every count here fits in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/**
 * Transactions take SQLite's write lock when they begin (BEGIN IMMEDIATE). A deferred transaction
 * that reads and then writes cannot wait for a lock another process holds: its snapshot is stale,
 * so SQLite answers SQLITE_BUSY at once whatever busy_timeout says. Taken up front, the lock is
 * waited for like any other. (In one process Kysely runs one statement at a time anyway.)
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

export function openDatabase(config: Config['database']): Db {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: config.url,
      max: 10,
      // A per-test-file schema keeps parallel test files apart on one database.
      ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', bulkWrite: (work) => work(), close: () => db.destroy() };
  }
  fs.mkdirSync(path.dirname(config.file), { recursive: true, mode: 0o700 });
  createPrivateFile(config.file);
  const database = new SQLite(config.file);
  // busy_timeout first, so even the journal-mode switch waits for another process's lock.
  database.pragma('busy_timeout = 5000');
  database.pragma('journal_mode = WAL');
  // FULL: a committed note survives a power cut (DESIGN.md §1).
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database }),
  });
  const checkpoints = checkpointThread(config.file);
  return {
    db,
    dialect: 'sqlite',
    sqlite: database,
    bulkWrite: deferredCheckpoints(database, checkpoints),
    close: async () => {
      await checkpoints.close();
      await db.destroy();
    },
  };
}

export async function ping(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** True when an insert or update broke a unique index (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string };
  return (
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    e?.code === '23505'
  );
}

/** True when SQLite gave up waiting for another process's write lock (busy_timeout passed). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === 'SQLITE_BUSY' || code?.startsWith('SQLITE_BUSY_') === true;
}

export function uniqueViolationTarget(error: unknown): string {
  const e = error as { message?: string; constraint?: string; detail?: string };
  return `${e.constraint ?? ''} ${e.detail ?? ''} ${e.message ?? ''}`;
}
