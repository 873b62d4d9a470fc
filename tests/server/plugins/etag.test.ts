import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import { etagOf } from '../../../server/plugins/etag';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

let t: TestApp;
let admin: Account;
let employee: Account;

const phone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;

async function addLead(assignedTo?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/Admin/leads',
    headers: bearer(admin),
    payload: { name: 'Etag Lead', phoneNo: phone(), ...(assignedTo ? { assignedTo } : {}) },
  });
  expect(res.statusCode).toBe(201);
}

const list = (account: Account, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/api/Admin/leads', headers: { ...bearer(account), ...headers } });

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
  await addLead(employee.email);
  // Unassigned leads: the admin's list differs from the employee's and is long enough (over the
  // 2 KB compression threshold) to be sent gzipped.
  for (let i = 0; i < 20; i++) await addLead();
});
afterAll(() => t.close());

describe('ETag / If-None-Match on GET /api lists', () => {
  it('tags a list answer with a weak ETag and asks the browser to revalidate it', async () => {
    const res = await list(employee);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await list(employee)).headers.etag).toBe(res.headers.etag);
  });

  it('answers 304 with no body when the list has not changed', async () => {
    const { headers } = await list(employee);
    const res = await list(employee, { 'if-none-match': String(headers.etag) });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    expect(res.headers.etag).toBe(headers.etag);
  });

  it('matches a tag inside a list, and the strong form of the same tag', async () => {
    const etag = String((await list(employee)).headers.etag);
    const strong = etag.replace(/^W\//, '');
    expect((await list(employee, { 'if-none-match': `W/"other", ${etag}` })).statusCode).toBe(304);
    expect((await list(employee, { 'if-none-match': strong })).statusCode).toBe(304);
  });

  it('answers the full list again once it changed', async () => {
    const before = await list(employee);
    await addLead(employee.email);
    const res = await list(employee, { 'if-none-match': String(before.headers.etag) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(before.json().length + 1);
    expect(res.headers.etag).not.toBe(before.headers.etag);
  });

  it('gives each caller the tag of their own answer', async () => {
    const mine = await list(employee);
    const all = await list(admin, { 'if-none-match': String(mine.headers.etag) });
    expect(all.statusCode).toBe(200);
    expect(all.headers.etag).not.toBe(mine.headers.etag);
  });

  it('leaves errors and writes untagged', async () => {
    const denied = await t.app.inject({ method: 'GET', url: '/api/Admin/leads' });
    expect(denied.statusCode).toBe(401);
    expect(denied.headers.etag).toBeUndefined();
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/leads',
      headers: bearer(admin),
      payload: { name: 'Etag Write', phoneNo: phone() },
    });
    expect(write.statusCode).toBe(201);
    expect(write.headers.etag).toBeUndefined();
  });

  it('tags the JSON, not its encoding, so a gzip answer revalidates too', async () => {
    const plain = await list(admin);
    const gzip = await list(admin, {
      'accept-encoding': 'gzip',
      'if-none-match': String(plain.headers.etag),
    });
    expect(gzip.statusCode).toBe(304);
    const fresh = await list(admin, { 'accept-encoding': 'gzip' });
    expect(fresh.headers['content-encoding']).toBe('gzip');
    expect(fresh.headers.etag).toBe(plain.headers.etag);
  });
});

describe('ETag / If-None-Match on other GET /api answers', () => {
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...bearer(admin), ...headers } });

  it('tags them from their JSON and answers 304 while they have not changed', async () => {
    for (const url of ['/api/Admin/stats', '/api/Admin/employees', '/api/admin/EMPLOYEES']) {
      const first = await get(url);
      expect(first.statusCode).toBe(200);
      expect(first.headers.etag).toBe(etagOf(first.body));
      expect(first.headers['cache-control']).toBe('no-store');
      const again = await get(url, { 'if-none-match': String(first.headers.etag) });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
  });

  it('moves the tag once the answer changes', async () => {
    const before = await get('/api/Admin/stats');
    await addLead();
    const after = await get('/api/Admin/stats', { 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.json().unassigned).toBe(before.json().unassigned + 1);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});
