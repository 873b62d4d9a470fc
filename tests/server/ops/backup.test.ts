import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import { buildRegistration } from '../../helpers/test-server';
import {
  ADMIN,
  call,
  createStore,
  killLeftovers,
  login,
  type ServerProcess,
  type Store,
  startServerProcess,
} from '../faults/support/server-process';

// `npm run backup` / `npm run restore` as an admin runs them: the scripts as child processes,
// against a real server process on a SQLite data dir. Backups are of SQLite only (PostgreSQL
// uses pg_dump), so this file makes its own SQLite store even when TEST_DATABASE_URL is set.

const root = path.resolve(import.meta.dirname, '../../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runScript(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const stores: Store[] = [];
afterAll(async () => {
  killLeftovers();
  for (const store of stores) await store.drop();
});

async function sqliteServer(dataDir?: string): Promise<{ store: Store; server: ServerProcess }> {
  const store = await createStore('sqlite');
  stores.push(store);
  if (dataDir) {
    fs.rmSync(store.dataDir, { recursive: true, force: true });
    fs.cpSync(dataDir, store.dataDir, { recursive: true });
  }
  return { store, server: await startServerProcess(store) };
}

function stop(server: ServerProcess) {
  server.kill('SIGTERM');
  return server.exited;
}

function freshDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-restore-'));
  stores.push({ dataDir: dir, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) } as Store);
  return dir;
}

describe('npm run backup / npm run restore', () => {
  it('backs up a live server under 1,000 writes; the restore holds every write committed before it began', async () => {
    const { store, server } = await sqliteServer();
    const adminToken = await login(server.url, ADMIN.email, ADMIN.password);
    const employee = buildRegistration({ roleId: Role.Employee });
    const registered = await call(server.url, adminToken, 'POST', '/api/Registration', employee);
    expect(registered.status).toBe(201);
    const employeeToken = await login(server.url, employee.email, employee.password);

    // 1,000 leads added through the API, four at a time; each name is recorded when its 201 arrives.
    const committedAt = new Map<string, number>();
    let next = 0;
    const writer = async () => {
      for (;;) {
        const i = next++;
        if (i >= 1000) return;
        const name = `Backup lead ${i}`;
        const res = await call(server.url, adminToken, 'POST', '/api/Admin/leads', {
          name,
          phoneNo: `98${String(i).padStart(8, '0')}`,
        });
        if (res.status !== 201) throw new Error(`add lead ${i}: ${res.status} ${res.body}`);
        committedAt.set(name, performance.now());
      }
    };
    const writers = Promise.all([writer(), writer(), writer(), writer()]);
    while (committedAt.size < 150) await new Promise((r) => setTimeout(r, 5));

    const out = path.join(freshDir(), 'nightly.backup');
    const backupStarted = performance.now();
    const committedBefore = [...committedAt.keys()];
    const backup = await runScript('backup', ['--out', out], { DATA_DIR: store.dataDir });
    const backupEnded = performance.now();
    await writers;
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`Backup written: ${out}`);
    expect(backup.stdout).toContain('secrets included: secrets.json, vapid.json');
    // The server kept serving writes while the backup ran.
    const duringBackup = [...committedAt.values()].filter((t) => t > backupStarted && t < backupEnded);
    expect(duringBackup.length).toBeGreaterThan(0);
    expect(committedAt.size).toBe(1000);

    // Refused while the server holds the database; nothing is changed.
    const whileRunning = await runScript('restore', [out], { DATA_DIR: store.dataDir });
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.stderr).toMatch(/A LeadNest server has .*leadnest\.sqlite open: stop it/);
    expect(fs.readdirSync(store.dataDir).filter((f) => f.includes('before-restore'))).toEqual([]);
    await stop(server);

    // On a new machine: an empty data dir.
    const restoredDir = freshDir();
    const restore = await runScript('restore', [out], { DATA_DIR: restoredDir });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain('secrets restored: secrets.json, vapid.json');

    const db = new SQLite(path.join(restoredDir, 'leadnest.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const names = new Set(
        (
          db.prepare("select name from leads where name like 'Backup lead %'").all() as { name: string }[]
        ).map((r) => r.name),
      );
      expect(committedBefore.filter((name) => !names.has(name))).toEqual([]);
      // Nothing in it that was never written.
      expect([...names].filter((name) => !committedAt.has(name))).toEqual([]);
    } finally {
      db.close();
    }

    // The restored server: the same accounts, sessions still valid (JWT secret restored), the
    // employee's Aadhaar still recognised as taken (Aadhaar key restored).
    const restored = await sqliteServer(restoredDir);
    const board = await call(restored.server.url, employeeToken, 'GET', '/api/Admin/leads');
    expect(board.status).toBe(200);
    const again = buildRegistration({ roleId: Role.Employee, adharNo: employee.adharNo });
    const duplicate = await call(restored.server.url, adminToken, 'POST', '/api/Registration', again);
    expect(duplicate.status).toBe(409);
    expect(await login(restored.server.url, ADMIN.email, ADMIN.password)).toBeTruthy();
    await stop(restored.server);
  });

  it('refuses a truncated file, a file that is not a backup, and a different AADHAAR_KEY', async () => {
    const { store, server } = await sqliteServer();
    const out = path.join(freshDir(), 'b.backup');
    expect((await runScript('backup', ['--out', out], { DATA_DIR: store.dataDir })).code).toBe(0);
    await stop(server);
    const before = fs.readFileSync(path.join(store.dataDir, 'leadnest.sqlite'));

    const truncated = `${out}.truncated`;
    const whole = fs.readFileSync(out);
    fs.writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    const t = await runScript('restore', [truncated], { DATA_DIR: store.dataDir });
    expect(t.code).toBe(1);
    expect(t.stderr).toContain(`Restore refused: ${truncated} is truncated`);

    const wrong = path.join(root, 'package.json');
    const w = await runScript('restore', [wrong], { DATA_DIR: store.dataDir });
    expect(w.code).toBe(1);
    expect(w.stderr).toContain(`Restore refused: ${wrong} is not a LeadNest backup`);

    const k = await runScript('restore', [out], { DATA_DIR: store.dataDir, AADHAAR_KEY: 'ab'.repeat(32) });
    expect(k.code).toBe(1);
    expect(k.stderr).toMatch(
      /AADHAAR_KEY \(fingerprint \w+\) is not the key this backup's database was written with/,
    );

    // None of them touched the database that was there.
    expect(fs.readFileSync(path.join(store.dataDir, 'leadnest.sqlite')).equals(before)).toBe(true);
    expect(fs.readdirSync(store.dataDir).filter((f) => f.includes('before-restore'))).toEqual([]);
  });

  it('a backup taken with AADHAAR_KEY in the environment restores only with that key set', async () => {
    const key = 'cd'.repeat(32);
    const { store, server } = await sqliteServer();
    const out = path.join(freshDir(), 'env-key.backup');
    expect(
      (await runScript('backup', ['--out', out], { DATA_DIR: store.dataDir, AADHAAR_KEY: key })).code,
    ).toBe(0);
    await stop(server);
    const without = await runScript('restore', [out], { DATA_DIR: freshDir() });
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('taken with AADHAAR_KEY set in the environment');
    const withKey = await runScript('restore', [out], { DATA_DIR: freshDir(), AADHAAR_KEY: key });
    expect(withKey.stderr).toBe('');
    expect(withKey.code).toBe(0);
  });

  it('points a PostgreSQL install to pg_dump', async () => {
    const run = await runScript('backup', [], {
      DATA_DIR: freshDir(),
      DATABASE_URL: 'postgres://leadnest@127.0.0.1:1/leadnest',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('back it up with pg_dump');
  });
});
