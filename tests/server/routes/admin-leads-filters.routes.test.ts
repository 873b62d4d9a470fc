import { afterAll, beforeAll, expect, it } from 'vitest';
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
import { insertLead, optionId } from './staff-support';

// The lead list's filters the Manager's drill-downs and the export use (issue 17).
let t: TestApp;
let admin: Account;
let manager: Account;
let asha: Account;
let ravi: Account;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  manager = await createAccount(t.app, admin, Role.Manager);
  asha = await createAccount(t.app, admin, Role.Employee);
  ravi = await createAccount(t.app, admin, Role.Employee);
  ids.ashaRiver = await insertLead(t.app, asha, { siteVisit: 'Riverside' });
  ids.ashaHill = await insertLead(t.app, asha, { siteVisit: 'Hill View' });
  ids.raviRiver = await insertLead(t.app, ravi, { siteVisit: 'Riverside' });
  ids.nobody = await insertLead(t.app, null, { siteVisit: 'Riverside' });
  const interested = await optionId(t.app, 'client_statuses', 'Interested');
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/LeadStatus/leads/${ids.ashaHill}/status`,
    payload: { clientStatusId: interested, notes: 'Keen' },
    headers: bearer(asha),
  });
  expect(res.statusCode).toBe(200);
  ids.interested = interested;
});
afterAll(() => t.close());

async function list(query: string, account: Account = manager) {
  const res = await t.app.inject({ url: `/api/Admin/leads?${query}`, headers: bearer(account) });
  expect(res.statusCode).toBe(200);
  const leadIds = res.json().map((l: { leadID: number }) => l.leadID);
  return { leadIds, total: Number(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]) };
}

it('filters by holder, campaign and current status, together, with the filtered total', async () => {
  expect(await list(`employeeId=${asha.id}`)).toEqual({ leadIds: [ids.ashaRiver, ids.ashaHill], total: 2 });
  expect((await list('siteVisit=Riverside')).leadIds).toEqual([ids.ashaRiver, ids.raviRiver, ids.nobody]);
  expect((await list(`employeeId=${asha.id}&siteVisit=Riverside`)).leadIds).toEqual([ids.ashaRiver]);
  expect((await list(`clientStatusId=${ids.interested}`)).leadIds).toEqual([ids.ashaHill]);
  expect((await list(`clientStatusId=0&employeeId=${asha.id}`)).leadIds).toEqual([ids.ashaRiver]);
});

it("never widens an employee's own list", async () => {
  expect((await list(`employeeId=${asha.id}`, ravi)).leadIds).toEqual([ids.raviRiver]);
});
