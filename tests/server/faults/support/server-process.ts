import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Role } from '../../../../contract/roles';
import { freePort } from '../../../helpers/free-port';
import { buildRegistration } from '../../../helpers/test-server';

// The real server as `npm run serve` runs it (tsx server/main.ts, API only), as a child process
// the fault tests can SIGKILL or SIGTERM, on a store that outlives it: a SQLite file in a temp
// DATA_DIR, or, when TEST_DATABASE_URL is set, a fresh schema of that PostgreSQL database.

const root = path.resolve(import.meta.dirname, '../../../..');

export const ADMIN = { email: 'faults-admin@example.com', password: 'Faults@12345' };

export interface Store {
  dataDir: string;
  kind: 'sqlite' | 'postgres';
  /** Environment that points a server process at this store. */
  env: Record<string, string>;
  /** Runs one query on the store from outside the server (rows as plain objects). */
  query<T = Record<string, unknown>>(text: string): Promise<T[]>;
  /** True while some connection holds an open write transaction on the leads table. */
  writerActive(): Promise<boolean>;
  /** Bytes the leads table's uncommitted or committed rows take so far (WAL size on SQLite). */
  bytesWritten(): Promise<number>;
  drop(): Promise<void>;
}

/** A fresh store: PostgreSQL when TEST_DATABASE_URL is set (unless `sqlite` is asked for). */
export async function createStore(kind?: 'sqlite'): Promise<Store> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-faults-'));
  const pgUrl = kind === 'sqlite' ? undefined : process.env.TEST_DATABASE_URL;
  if (!pgUrl) {
    const file = path.join(dataDir, 'leadnest.sqlite');
    return {
      dataDir,
      kind: 'sqlite',
      env: {},
      async query<T>(text: string) {
        const db = new SQLite(file, { readonly: true, timeout: 5000 });
        try {
          return db.prepare(text).all() as T[];
        } finally {
          db.close();
        }
      },
      async writerActive() {
        // BEGIN IMMEDIATE takes SQLite's one write lock; with no wait, SQLITE_BUSY means the
        // server holds it, i.e. a write transaction (the import) is open.
        const db = new SQLite(file, { timeout: 0 });
        try {
          db.exec('BEGIN IMMEDIATE');
          db.exec('ROLLBACK');
          return false;
        } catch (error) {
          if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
          throw error;
        } finally {
          db.close();
        }
      },
      async bytesWritten() {
        return fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
      },
      async drop() {
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const schema = `f_${crypto.randomBytes(6).toString('hex')}`;
  const url = new URL(pgUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  await pool.query(`create schema ${schema}`);
  const query = async <T>(text: string) =>
    (await pool.query(text.replaceAll('{schema}', schema))).rows as T[];
  return {
    dataDir,
    kind: 'postgres',
    env: { DATABASE_URL: url.toString() },
    query,
    async writerActive() {
      // An insert holds RowExclusiveLock on the table until its transaction ends.
      const rows = await query<{ n: number }>(
        `select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
         join pg_namespace s on s.oid = c.relnamespace
         where s.nspname = '{schema}' and c.relname = 'leads' and l.mode = 'RowExclusiveLock' and l.granted`,
      );
      return rows[0]!.n > 0;
    },
    async bytesWritten() {
      // Uncommitted inserts already extend the table's heap.
      const rows = await query<{ n: string }>(`select pg_relation_size('{schema}.leads') as n`);
      return Number(rows[0]!.n);
    },
    async drop() {
      await pool.query(`drop schema ${schema} cascade`);
      await pool.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ServerProcess {
  url: string;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
  /** Waits until the server's log has a line matching `pattern`. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Kills (SIGKILL) every server process a test left running. Call it in afterAll. */
export function killLeftovers(): void {
  for (const child of running) child.kill('SIGKILL');
}

export async function startServerProcess(
  store: Store,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: store.dataDir,
      STATIC_DIR: 'none',
      LOG_LEVEL: 'info',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...store.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const append = (d: Buffer) => {
    log += d;
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);

  const waitForLog = async (pattern: RegExp, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(log)) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`server exited before logging ${pattern}:\n${log}`);
      if (Date.now() > deadline) throw new Error(`server did not log ${pattern}:\n${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited early:\n${log}`);
    const ok = await fetch(`${url}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server did not answer /api/health in 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    output: () => log,
    exited,
    kill: (signal) => child.kill(signal),
    waitForLog,
  };
}

export async function login(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/Registration/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export function upload(
  url: string,
  token: string,
  file: Buffer,
  query = 'autoAssign=true',
): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), 'leads.xlsx');
  return fetch(`${url}/api/Admin/upload-leads?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

/** Registers an employee through the API as `adminToken` and signs them in. */
export async function registerEmployee(
  url: string,
  adminToken: string,
): Promise<{ id: number; email: string; token: string }> {
  const body = buildRegistration({ roleId: Role.Employee });
  const res = await fetch(`${url}/api/Registration`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const { registrationId } = (await res.json()) as { registrationId: number };
  return { id: registrationId, email: body.email, token: await login(url, body.email, body.password) };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
  json<T = unknown>(): T;
}

/** One JSON call to a server process, its answer read whole. */
export async function call(
  url: string,
  token: string | null,
  method: string,
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text, json: () => JSON.parse(text) };
}
