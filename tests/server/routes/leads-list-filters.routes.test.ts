import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_COUNT_HEADER } from '../../../contract/leads-list';
import { Role } from '../../../contract/roles';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { optionId } from './staff-support';

// GET /api/Registration with the admin list's filters (issue 19): holder, campaign, status.
let t: TestApp;
let admin: Account;
let manager: Account;
let asha: Account;
let ravi: Account;
let interested: number;
const ids: Record<string, number> = {};

async function insertLead(name: string, holder: Account | null, siteVisit: string, deleted = false) {
  const row = await t.app.deps.db
    .insertInto('leads')
    .values({
      name,
      email: '',
      phone: `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`,
      configuration: '2 BHK',
      site_visit: siteVisit,
      location: 'Baner',
      interested_in: '',
      assigned_to_id: holder?.id ?? null,
      assigned_date: holder ? new Date().toISOString() : null,
      created_at: new Date().toISOString(),
      deleted_at: deleted ? new Date().toISOString() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  manager = await createAccount(t.app, admin, Role.Manager);
  asha = await createAccount(t.app, admin, Role.Employee);
  ravi = await createAccount(t.app, admin, Role.Employee);
  ids.ashaMeera = await insertLead('Meera Rao', asha, 'Riverside');
  ids.ashaKiran = await insertLead('Kiran Rao', asha, 'Hill View');
  ids.ashaShah = await insertLead('Meera Shah', asha, 'Riverside');
  ids.raviIyer = await insertLead('Meera Iyer', ravi, 'Riverside');
  ids.nobodyDas = await insertLead('Meera Das', null, 'Riverside');
  ids.nobodySunil = await insertLead('Sunil Rao', null, '');
  await insertLead('Meera Gone', asha, 'Riverside', true);
  interested = await optionId(t.app, 'client_statuses', 'Interested');
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/LeadStatus/leads/${ids.ashaKiran}/status`,
    payload: { clientStatusId: interested, notes: 'Keen' },
    headers: bearer(asha),
  });
  expect(res.statusCode).toBe(200);
});
afterAll(() => t.close());

async function list(query: string, account: Account = admin) {
  const res = await t.app.inject({ url: `/api/Registration?${query}`, headers: bearer(account) });
  expect(res.statusCode).toBe(200);
  const leadIds = res.json().map((l: { leadID: number }) => l.leadID);
  return { leadIds, total: Number(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]) };
}

describe('GET /api/Registration filters (issue 19)', () => {
  it('filters by holder, campaign, status or unassigned alone, with the filtered total', async () => {
    const paged = 'page=1&pageSize=100';
    expect(await list(`employeeId=${asha.id}&${paged}`)).toEqual({
      leadIds: [ids.ashaMeera, ids.ashaKiran, ids.ashaShah],
      total: 3,
    });
    expect(await list(`siteVisit=Riverside&${paged}`)).toEqual({
      leadIds: [ids.ashaMeera, ids.ashaShah, ids.raviIyer, ids.nobodyDas],
      total: 4,
    });
    // '' is the campaign of leads that came with none.
    expect(await list(`siteVisit=&${paged}`)).toEqual({ leadIds: [ids.nobodySunil], total: 1 });
    expect(await list(`clientStatusId=${interested}&${paged}`)).toEqual({
      leadIds: [ids.ashaKiran],
      total: 1,
    });
    // 0 is "New": no status recorded yet.
    expect(await list(`clientStatusId=0&${paged}`)).toEqual({
      leadIds: [ids.ashaMeera, ids.ashaShah, ids.raviIyer, ids.nobodyDas, ids.nobodySunil],
      total: 5,
    });
    expect(await list(`unassigned=true&${paged}`)).toEqual({
      leadIds: [ids.nobodyDas, ids.nobodySunil],
      total: 2,
    });
    expect((await list(`unassigned=false&${paged}`)).total).toBe(6);
  });

  it('combines the filters with each other and with the search', async () => {
    expect((await list(`employeeId=${asha.id}&search=meera`)).leadIds).toEqual([ids.ashaMeera, ids.ashaShah]);
    expect((await list('siteVisit=Riverside&search=RAO')).leadIds).toEqual([ids.ashaMeera]);
    expect((await list('clientStatusId=0&search=rao')).leadIds).toEqual([ids.ashaMeera, ids.nobodySunil]);
    expect((await list(`clientStatusId=${interested}&search=meera`)).leadIds).toEqual([]);
    expect((await list('unassigned=true&search=meera')).leadIds).toEqual([ids.nobodyDas]);
    expect(
      (await list(`employeeId=${ravi.id}&siteVisit=Riverside&clientStatusId=0&search=iyer`)).leadIds,
    ).toEqual([ids.raviIyer]);
    expect(
      (await list(`employeeId=${ravi.id}&siteVisit=${encodeURIComponent('Hill View')}`)).leadIds,
    ).toEqual([]);
  });

  it('pages the filtered list and counts only what the filters keep', async () => {
    const page = (n: number) => list(`siteVisit=Riverside&search=meera&page=${n}&pageSize=3`);
    expect(await page(1)).toEqual({ leadIds: [ids.ashaMeera, ids.ashaShah, ids.raviIyer], total: 4 });
    expect(await page(2)).toEqual({ leadIds: [ids.nobodyDas], total: 4 });
    expect(await page(3)).toEqual({ leadIds: [], total: 4 });
    expect(await list(`employeeId=${asha.id}&page=2&pageSize=2`)).toEqual({
      leadIds: [ids.ashaShah],
      total: 3,
    });
    // Without page or pageSize, every match, and the header counts them.
    expect(await list(`employeeId=${asha.id}`)).toEqual({
      leadIds: [ids.ashaMeera, ids.ashaKiran, ids.ashaShah],
      total: 3,
    });
  });

  it('answers the same fields, for a Manager too', async () => {
    const res = await t.app.inject({
      url: `/api/Registration?clientStatusId=${interested}`,
      headers: bearer(manager),
    });
    expect(res.statusCode).toBe(200);
    const [lead] = res.json() as Record<string, unknown>[];
    expect(Object.keys(lead!).sort()).toEqual(['contactNo', 'email', 'leadID', 'name']);
    expect(lead).toMatchObject({ leadID: ids.ashaKiran, name: 'Kiran Rao', email: '' });
  });

  it('refuses a bad filter with a 400 problem', async () => {
    for (const query of [
      'employeeId=abc',
      'employeeId=0',
      'employeeId=',
      'clientStatusId=-1',
      'clientStatusId=1.5',
      `clientStatusId=${2 ** 31}`,
      'unassigned=maybe',
      `siteVisit=${'x'.repeat(201)}`,
    ]) {
      const res = await t.app.inject({ url: `/api/Registration?${query}`, headers: bearer(admin) });
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type'], query).toContain('application/problem+json');
    }
  });
});
