import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, killLeftovers, type Store, startServerProcess } from '../faults/support/server-process';

// Issue 16, finding 8: DATA_DIR was created 0755 and the SQLite files 0644, readable by every
// account on the machine, though they hold password hashes and every lead. The real server
// process, started the way an admin starts it, under the usual umask 022.

const WARNING = /DATA_DIR is readable by other accounts/;
let store: Store;
let previousUmask: number;

beforeAll(async () => {
  previousUmask = process.umask(0o022);
  // SQLite on purpose: the files checked are SQLite's (PostgreSQL keeps its own).
  store = await createStore('sqlite');
});
afterAll(async () => {
  killLeftovers();
  process.umask(previousUmask);
  await store?.drop();
});

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

describe('DATA_DIR', () => {
  it('is created 0700 with the database, its WAL files and the secrets 0600, and no warning', async () => {
    const dataDir = path.join(store.dataDir, 'fresh', 'data');
    const server = await startServerProcess(store, { DATA_DIR: dataDir });
    const file = path.join(dataDir, 'leadnest.sqlite');
    expect(modeOf(dataDir)).toBe('700');
    expect(modeOf(path.join(store.dataDir, 'fresh'))).toBe('700');
    for (const f of [file, `${file}-wal`, `${file}-shm`, path.join(dataDir, 'secrets.json')]) {
      expect(modeOf(f), f).toBe('600');
    }
    expect(server.output()).not.toMatch(WARNING);
    server.kill('SIGTERM');
    await server.exited;
  }, 90_000);

  it('that others can read is used, with a warning at start', async () => {
    const dataDir = path.join(store.dataDir, 'shared');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    const server = await startServerProcess(store, { DATA_DIR: dataDir });
    await server.waitForLog(WARNING);
    expect(server.output()).toMatch(
      /"level":40.*DATA_DIR is readable by other accounts on this machine \(mode 755\)/,
    );
    // The files made inside it are still the server's alone.
    expect(modeOf(path.join(dataDir, 'leadnest.sqlite'))).toBe('600');
    server.kill('SIGTERM');
    await server.exited;
  }, 90_000);
});
