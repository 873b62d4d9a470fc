import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import { type Db, openDatabase } from '../../../server/db/database';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

// List answers are kept, serialised and compressed, while the database has not changed
// (server/services/answer-cache.ts); these tests check a caller never sees a stale one.

let t: TestApp;
let admin: Account;
let employee: Account;
/** A second connection, as another API node (or process) sharing the database would have. */
let otherNode: Db;

const phone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;

async function addLead(name: string, assignedTo?: string): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/Admin/leads',
    headers: bearer(admin),
    payload: { name, phoneNo: phone(), ...(assignedTo ? { assignedTo } : {}) },
  });
  expect(res.statusCode).toBe(201);
  return res.json().leadID;
}

const list = (account: Account, headers: Record<string, string> = {}, url = '/api/Admin/leads') =>
  t.app.inject({ method: 'GET', url, headers: { ...bearer(account), ...headers } });

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
  // Over the 2 KB compression threshold.
  for (let i = 0; i < 30; i++) await addLead(`Cached Lead ${i}`, i % 2 ? employee.email : undefined);
  otherNode = openDatabase(t.config.database);
});
afterAll(async () => {
  await otherNode.close();
  await t.close();
});

describe('cached list answers', () => {
  it('show a change another node committed on the very next call', async () => {
    const before = await list(employee);
    const [first] = before.json() as { leadID: number }[];
    await otherNode.db
      .updateTable('leads')
      .set({ name: 'Renamed elsewhere' })
      .where('id', '=', first!.leadID)
      .execute();
    const after = await list(employee, { 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.json()[0].name).toBe('Renamed elsewhere');
  });

  it("show a lead assigned to the employee, and take it off the admin's unassigned list", async () => {
    const id = await addLead('To be assigned');
    expect(
      (await list(admin, {}, '/api/Admin/unassigned')).json().map((l: { leadID: number }) => l.leadID),
    ).toContain(id);
    const assign = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/assign',
      headers: bearer(admin),
      payload: { employeeId: employee.id, leadIds: [id] },
    });
    expect(assign.statusCode).toBe(200);
    expect((await list(employee)).json().map((l: { leadID: number }) => l.leadID)).toContain(id);
    expect(
      (await list(admin, {}, '/api/Admin/unassigned')).json().map((l: { leadID: number }) => l.leadID),
    ).not.toContain(id);
  });

  it('answer each page and search with its own list and total', async () => {
    const page1 = await list(admin, {}, '/api/Admin/leads?page=1&pageSize=5');
    const page2 = await list(admin, {}, '/api/Admin/leads?page=2&pageSize=5');
    const search = await list(admin, {}, '/api/Admin/leads?search=Cached%20Lead%201');
    expect(page1.json()).toHaveLength(5);
    expect(page2.json()[0].leadID).toBeGreaterThan(page1.json()[4].leadID);
    expect(page1.headers['x-total-count']).toBe(page2.headers['x-total-count']);
    expect(search.json().every((l: { name: string }) => l.name.startsWith('Cached Lead 1'))).toBe(true);
    expect(Number(search.headers['x-total-count'])).toBe(search.json().length);
  });

  it('come compressed as the client accepts, decoding to the same JSON under the same tag', async () => {
    const plain = await list(admin, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const br = await list(admin, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await list(admin, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(1);

    const notModified = await list(admin, {
      'accept-encoding': 'br',
      'if-none-match': String(plain.headers.etag),
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers['content-encoding']).toBeUndefined();
    expect(notModified.body).toBe('');
  });
});

describe('sessions', () => {
  it('end on the next call once the account is deactivated, however many calls came before', async () => {
    const user = await createAccount(t.app, admin, Role.Employee);
    for (let i = 0; i < 3; i++) expect((await list(user)).statusCode).toBe(200);
    await otherNode.db.updateTable('users').set({ is_active: 0 }).where('id', '=', user.id).execute();
    expect((await list(user)).statusCode).toBe(401);
  });

  it("end on the next call once the user's token version moves (a password reset elsewhere)", async () => {
    const user = await createAccount(t.app, admin, Role.Employee);
    expect((await list(user)).statusCode).toBe(200);
    await otherNode.db
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('id', '=', user.id)
      .execute();
    expect((await list(user)).statusCode).toBe(401);
  });

  it('refuse a token that differs by one character from one already accepted', async () => {
    expect((await list(employee)).statusCode).toBe(200);
    // The signature's first character: its last one may carry only padding bits.
    const at = employee.token.lastIndexOf('.') + 1;
    const swapped = employee.token[at] === 'A' ? 'B' : 'A';
    const forged = {
      ...employee,
      token: `${employee.token.slice(0, at)}${swapped}${employee.token.slice(at + 1)}`,
    };
    expect((await list(forged)).statusCode).toBe(401);
  });
});
