import crypto from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadRows, toWorkbook } from '../../../bench/lead-sheets';
import { loadConfig } from '../../../server/config';
import { openDatabase } from '../../../server/db/database';
import { busyMessage } from '../../../server/plugins/problem-json';
import {
  ADMIN,
  type Answer,
  call,
  createStore,
  killLeftovers,
  login,
  registerEmployee,
  type ServerProcess,
  type Store,
  startServerProcess,
  upload,
} from './support/server-process';

// Issue 6, Faults: two API nodes (two server processes) on one database — PostgreSQL when
// TEST_DATABASE_URL is set, else one SQLite file — racing for the same leads. Each lead ends up
// with exactly one owner, and concurrent writers never surface a lock error as a 500. The SQLite
// part always runs on SQLite, since PostgreSQL has no busy lock to time out on.

interface Cluster {
  store: Store;
  nodes: [ServerProcess, ServerProcess];
  admin: string;
  employees: { id: number; email: string; token: string }[];
  options: { callStatusId: number; clientStatusId: number };
}

async function startCluster(store: Store): Promise<Cluster> {
  // One after the other: the first start migrates and seeds the Admin.
  const first = await startServerProcess(store);
  const second = await startServerProcess(store);
  const admin = await login(first.url, ADMIN.email, ADMIN.password);
  const employees = [];
  for (let i = 0; i < 3; i++) employees.push(await registerEmployee(first.url, admin));
  const e = employees[0]!.token;
  const calls = await call(first.url, e, 'GET', '/api/LeadStatus/call-statuses');
  const clients = await call(first.url, e, 'GET', '/api/LeadStatus/client-statuses');
  return {
    store,
    nodes: [first, second],
    admin,
    employees,
    options: {
      callStatusId: calls.json<{ callStatusId: number }[]>()[0]!.callStatusId,
      clientStatusId: clients.json<{ clientStatusId: number }[]>()[0]!.clientStatusId,
    },
  };
}

/** Leads of one generated sheet, by phone range, as the database holds them. */
function leadsOfSheet(store: Store, phoneBase: number, count: number) {
  return store.query<{
    id: number;
    phone: string;
    assigned_to_id: number | null;
    assigned_date: string | null;
  }>(
    `select id, phone, assigned_to_id, assigned_date from leads
     where phone >= '${phoneBase}' and phone < '${phoneBase + count}' and deleted_at is null order by id`,
  );
}

let cluster: Cluster;
const extraStores: Store[] = [];

beforeAll(async () => {
  cluster = await startCluster(await createStore());
}, 60_000);

afterAll(async () => {
  killLeftovers();
  await cluster?.store.drop();
  for (const s of extraStores) await s.drop();
});

describe('two admins assigning the same leads at once, on two nodes', () => {
  it('gives each lead to exactly one employee: one request wins, the overlapping ones get 409', async () => {
    const { nodes, admin, employees, store } = cluster;
    const phoneBase = 7_400_000_000;
    const rounds = 8;
    const window = 30;
    const sheet = toWorkbook(leadRows(rounds * window, { phoneBase }));
    expect((await upload(nodes[0].url, admin, sheet, 'autoAssign=false')).status).toBe(200);
    const ids = (await leadsOfSheet(store, phoneBase, rounds * window)).map((l) => Number(l.id));
    expect(ids).toHaveLength(rounds * window);

    // Three requests per round whose lead sets pairwise overlap.
    const slices: [number, number][] = [
      [0, 20],
      [10, 30],
      [5, 25],
    ];
    const plan: { round: number; employee: number; leadIds: number[]; answer?: Answer }[] = [];
    for (let round = 0; round < rounds; round++) {
      const part = ids.slice(round * window, (round + 1) * window);
      const requests = slices.map(([from, to], k) => ({
        round,
        employee: employees[k]!.id,
        leadIds: part.slice(from, to),
      }));
      await Promise.all(
        requests.map(async (r, k) => {
          const node = nodes[(round + k) % 2]!;
          const answer = await call(node.url, admin, 'POST', '/api/Admin/assign', {
            employeeId: r.employee,
            leadIds: r.leadIds,
          });
          plan.push({ ...r, answer });
        }),
      );
    }

    const owner = new Map(
      (await leadsOfSheet(store, phoneBase, rounds * window)).map((l) => [Number(l.id), l]),
    );
    for (let round = 0; round < rounds; round++) {
      const answers = plan.filter((p) => p.round === round);
      expect(answers.map((p) => p.answer!.status).sort()).toEqual([200, 409, 409]);
      const winner = answers.find((p) => p.answer!.status === 200)!;
      for (const id of ids.slice(round * window, (round + 1) * window)) {
        const lead = owner.get(id)!;
        if (winner.leadIds.includes(id)) {
          expect(Number(lead.assigned_to_id)).toBe(winner.employee);
          expect(lead.assigned_date).toBeTruthy();
        } else {
          expect(lead.assigned_to_id).toBeNull();
        }
      }
      for (const loser of answers.filter((p) => p !== winner)) {
        expect(loser.answer!.json()).toMatchObject({
          status: 409,
          title: expect.any(String),
          message: expect.any(String),
        });
      }
    }
  }, 60_000);
});

describe('two auto-assigning imports of the same spreadsheet at once, on two nodes', () => {
  it('stores each lead once, with one owner, and the two answers add up to the sheet', async () => {
    const { nodes, admin, employees, store } = cluster;
    const phoneBase = 7_500_000_000;
    const rows = 4000;
    const sheet = toWorkbook(leadRows(rows, { phoneBase }));
    const answers = await Promise.all(nodes.map((node) => upload(node.url, admin, sheet)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as {
      inserted: number;
      skipped: number;
    }[];
    expect(bodies[0]!.inserted + bodies[1]!.inserted).toBe(rows);
    expect(bodies[0]!.skipped + bodies[1]!.skipped).toBe(rows);

    const leads = await leadsOfSheet(store, phoneBase, rows);
    expect(leads).toHaveLength(rows);
    expect(new Set(leads.map((l) => l.phone)).size).toBe(rows);
    const ours = new Set(employees.map((e) => e.id));
    expect(leads.filter((l) => !ours.has(Number(l.assigned_to_id)))).toEqual([]);
  }, 60_000);
});

const IMPORT_ROWS = 10_000;

const isBusyAnswer = (answer: Answer) =>
  answer.status === 503 &&
  answer.headers.get('retry-after') !== null &&
  answer.json<{ message: string }>().message === busyMessage;

/**
 * Many writes at once from both nodes — notes, reminders, new leads, sign-ins (rate-limit
 * counters), registrations — while one node imports: every answer is the expected 2xx.
 */
async function writersBurst(c: Cluster): Promise<{ sent: number; statuses: Record<number, number> }> {
  const [a, b] = c.nodes;
  const employee = c.employees[0]!;
  const own = await call(a.url, employee.token, 'GET', '/api/Admin/leads');
  const ownIds = own.json<{ leadID: number }[]>().map((l) => l.leadID);
  expect(ownIds.length).toBeGreaterThan(0);
  const importing = upload(a.url, c.admin, toWorkbook(leadRows(IMPORT_ROWS, { phoneBase: 7_600_000_000 })));
  let imported: Response | undefined;
  void importing.then((res) => {
    imported = res;
  });
  // Start once the import is inside its write transaction, so the writes queue behind it.
  while (!(await c.store.writerActive())) {
    expect(imported, 'the import answered before it was seen running').toBeUndefined();
    await new Promise((r) => setTimeout(r, 20));
  }

  const answers: { what: string; expected: number; answer: Answer }[] = [];
  let n = 0;
  const one = async (node: ServerProcess) => {
    n += 1;
    const i = n;
    const kind = i % 5;
    const leadId = ownIds[i % ownIds.length]!;
    if (kind === 0) {
      const answer = await call(node.url, employee.token, 'POST', '/api/LeadStatus', {
        leadId,
        notes: `burst ${i}`,
        ...c.options,
      });
      answers.push({ what: 'note', expected: 201, answer });
    } else if (kind === 1) {
      const answer = await call(node.url, employee.token, 'POST', '/api/LeadStatus/add-reminder', {
        leadId,
        reminderTime: new Date(Date.now() + 3600_000).toISOString(),
        note: `remind ${i}`,
      });
      answers.push({ what: 'reminder', expected: 201, answer });
    } else if (kind === 2) {
      const answer = await call(node.url, c.admin, 'POST', '/api/Admin/leads', {
        name: `Burst ${i}`,
        phoneNo: String(7_700_000_000 + i),
      });
      answers.push({ what: 'add lead', expected: 201, answer });
    } else if (kind === 3) {
      const answer = await call(node.url, null, 'POST', '/api/Registration/login', {
        email: employee.email,
        password: 'wrong password',
      });
      answers.push({ what: 'failed sign-in', expected: 401, answer });
    } else {
      const answer = await call(node.url, employee.token, 'PUT', `/api/LeadStatus/leads/${leadId}/status`, {
        leadId,
        clientStatusId: c.options.clientStatusId,
        notes: `move ${i}`,
      });
      answers.push({ what: 'move', expected: 200, answer });
    }
  };
  const waves = 12;
  for (let w = 0; w < waves; w++) await Promise.all(Array.from({ length: 10 }, (_, k) => one(k % 2 ? b : a)));
  expect((await importing).status).toBe(200);

  const statuses: Record<number, number> = {};
  for (const { answer } of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  // A write that waited past busy_timeout may get 503 (nothing written, retry); never a 500.
  const failed = answers.filter((x) => x.answer.status >= 500 && !isBusyAnswer(x.answer));
  expect(failed.map((x) => `${x.what}: ${x.answer.body}`)).toEqual([]);
  for (const x of answers) {
    if (isBusyAnswer(x.answer)) continue;
    // Past the per-email limit the failed sign-ins turn to 429; either is a right answer.
    if (x.what === 'failed sign-in') expect([401, 429]).toContain(x.answer.status);
    else expect(x.answer.status, `${x.what}: ${x.answer.body}`).toBe(x.expected);
  }
  return { sent: answers.length, statuses };
}

describe('concurrent writers on two nodes', () => {
  it('opens each SQLite connection with WAL, synchronous=FULL, foreign keys and a busy timeout', async () => {
    const store = await createStore('sqlite');
    extraStores.push(store);
    const config = loadConfig({ DATA_DIR: store.dataDir, STATIC_DIR: 'none' });
    const database = openDatabase(config.database);
    try {
      const read = async (pragma: string) =>
        Object.values((await sql.raw(`pragma ${pragma}`).execute(database.db)).rows[0] as object)[0];
      expect(await read('journal_mode')).toBe('wal');
      expect(await read('synchronous')).toBe(2); // FULL
      expect(await read('foreign_keys')).toBe(1);
      expect(await read('busy_timeout')).toBeGreaterThanOrEqual(5000);
    } finally {
      await database.close();
    }
  });

  // On a PostgreSQL run this goes on the test database and then on one SQLite file, where two
  // processes share SQLite's single write lock.
  it('answers every write while an import holds the database, never a 500 (SQLITE_BUSY included)', async () => {
    const clusters = cluster.store.kind === 'sqlite' ? [cluster] : [cluster, await sqliteCluster()];
    for (const c of clusters) {
      if (c.store.kind === 'sqlite') {
        const [journal] = await c.store.query<{ journal_mode: string }>('pragma journal_mode');
        expect(journal!.journal_mode).toBe('wal');
      }
      const seed = await upload(
        c.nodes[0].url,
        c.admin,
        toWorkbook(leadRows(30, { phoneBase: 7_800_000_000 })),
      );
      expect(seed.status).toBe(200);
      const result = await writersBurst(c);
      console.log(
        `${c.store.kind}: ${result.sent} concurrent writes, answers ${JSON.stringify(result.statuses)}`,
      );
    }
  }, 90_000);

  it('answers 503 with Retry-After when the SQLite write lock is held past busy_timeout, and the retry stores one note', async () => {
    const c = cluster.store.kind === 'sqlite' ? cluster : await sqliteCluster();
    const employee = c.employees[1]!;
    const [lead] = await c.store.query<{ id: number }>(
      'select id from leads where deleted_at is null limit 1',
    );
    await call(c.nodes[0].url, c.admin, 'POST', '/api/Admin/assign', {
      employeeId: employee.id,
      leadIds: [lead!.id],
    });
    const note = { leadId: lead!.id, notes: 'written while locked', ...c.options };
    const key = crypto.randomUUID();
    const send = () =>
      call(c.nodes[1].url, employee.token, 'POST', '/api/LeadStatus', note, { 'idempotency-key': key });

    // Another process (this test) holds the write lock longer than the server waits for it.
    const holder = new SQLite(path.join(c.store.dataDir, 'leadnest.sqlite'));
    holder.exec('BEGIN IMMEDIATE');
    let busy: Answer;
    try {
      busy = await send();
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(busy.status).toBe(503);
    expect(isBusyAnswer(busy)).toBe(true);
    expect(busy.json()).toMatchObject({ status: 503, title: expect.any(String) });

    const retried = await send();
    expect(retried.status).toBe(201);
    const [notes] = await c.store.query<{ n: number }>(
      `select count(*) as n from lead_notes where notes = 'written while locked'`,
    );
    expect(Number(notes!.n)).toBe(1);
  }, 60_000);
});

let sqlite: Promise<Cluster> | undefined;
/** A second pair of nodes on one SQLite file, for a PostgreSQL run. */
function sqliteCluster(): Promise<Cluster> {
  sqlite ??= createStore('sqlite').then((store) => {
    extraStores.push(store);
    return startCluster(store);
  });
  return sqlite;
}
