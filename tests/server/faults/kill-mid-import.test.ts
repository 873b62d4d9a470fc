import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadRows, toWorkbook } from '../../../bench/lead-sheets';
import {
  ADMIN,
  createStore,
  killLeftovers,
  login,
  registerEmployee,
  type ServerProcess,
  type Store,
  startServerProcess,
  upload,
} from './support/server-process';

// Issue 6, Faults: `kill -9` of the server in the middle of a 100,000-row import. The import runs
// in one transaction (DESIGN.md §4), so after a restart on the same data none of its rows exist,
// and uploading the file again imports every row exactly once.

const ROWS = 100_000;
const EMPLOYEES = 3;
// Proof that the import was writing rows, not still parsing, when it was killed: its write
// transaction is open and this many bytes went to the WAL (SQLite) or the table (PostgreSQL).
const WRITTEN_BEFORE_KILL = 2 * 1024 * 1024;

let store: Store;
let server: ServerProcess;
let file: Buffer;

beforeAll(async () => {
  store = await createStore();
  server = await startServerProcess(store);
  const admin = await login(server.url, ADMIN.email, ADMIN.password);
  for (let i = 0; i < EMPLOYEES; i++) await registerEmployee(server.url, admin);
  file = toWorkbook(leadRows(ROWS, { phoneBase: 7_100_000_000 }));
}, 90_000);

afterAll(async () => {
  killLeftovers();
  await store?.drop();
});

const countLeads = async () =>
  (
    await store.query<{ n: number; p: number }>('select count(*) as n, count(distinct phone) as p from leads')
  )[0]!;

async function sleep(ms: number) {
  await new Promise((r) => setTimeout(r, ms));
}

describe('kill -9 in the middle of a 100,000-row import', () => {
  it('leaves no row of the import behind, and the same upload then imports every row once', async () => {
    const admin = await login(server.url, ADMIN.email, ADMIN.password);
    let answered = false;
    const pending = upload(server.url, admin, file).then(
      (res) => {
        answered = true;
        return res.status;
      },
      () => 'connection lost' as const,
    );

    // Wait until the import's transaction is open and has written rows, then kill.
    while (!(await store.writerActive())) {
      expect(answered, 'the import answered before its transaction was seen').toBe(false);
      await sleep(20);
    }
    const before = await store.bytesWritten();
    while ((await store.bytesWritten()) - before < WRITTEN_BEFORE_KILL) {
      expect(answered, 'the import committed before it could be killed mid-way').toBe(false);
      expect(await store.writerActive(), 'the write transaction ended before the kill').toBe(true);
      await sleep(20);
    }
    server.kill('SIGKILL');
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await pending).toBe('connection lost');

    server = await startServerProcess(store);
    expect(Number((await countLeads()).n)).toBe(0);
    const token = await login(server.url, ADMIN.email, ADMIN.password);
    const stats = await fetch(`${server.url}/api/Admin/stats`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await stats.json()).toMatchObject({ assigned: 0, unassigned: 0 });

    const again = await upload(server.url, token, file);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({
      totalRows: ROWS,
      inserted: ROWS,
      skipped: 0,
      autoAssigned: true,
    });
    const counts = await countLeads();
    expect(Number(counts.n)).toBe(ROWS);
    expect(Number(counts.p)).toBe(ROWS);
    const perEmployee = await store.query<{ n: number }>(
      'select count(*) as n from leads where assigned_to_id is not null group by assigned_to_id',
    );
    expect(perEmployee.map((r) => Number(r.n)).reduce((a, b) => a + b, 0)).toBe(ROWS);
    expect(perEmployee).toHaveLength(EMPLOYEES);

    server.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  }, 120_000);
});
