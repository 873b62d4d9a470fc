import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { phone } from './admin-upload-support';

let t: TestApp;
let admin: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
});
afterAll(() => t.close());

describe('GET /api/Admin/stats', () => {
  it('counts live leads by assignment, by employee (idle ones too) and by campaign', async () => {
    const e1 = await createAccount(t.app, admin, Role.Employee, { email: 'one@example.com' });
    await createAccount(t.app, admin, Role.Employee, { email: 'two@example.com' });
    const add = (body: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/Admin/leads',
        payload: { name: 'S', phoneNo: phone(), ...body },
        headers: bearer(admin),
      });
    await add({ siteVisit: 'Expo', assignedTo: e1.email });
    await add({ siteVisit: 'Expo' });
    await add({ siteVisit: '' });
    const gone = (await add({ siteVisit: 'Gone', assignedTo: e1.email })).json();
    await t.app.deps.db
      .updateTable('leads')
      .set({ deleted_at: new Date().toISOString() })
      .where('id', '=', gone.leadID)
      .execute();

    const res = await t.app.inject({ url: '/api/Admin/stats', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      assigned: 1,
      unassigned: 2,
      perEmployee: [
        { email: 'one@example.com', count: 1 },
        { email: 'two@example.com', count: 0 },
      ],
      perCampaign: [
        { siteVisit: 'Expo', count: 2 },
        { siteVisit: '(none)', count: 1 },
      ],
    });
  });

  it('is readable by a Manager, not by an Employee or anonymous callers', async () => {
    const manager = await createAccount(t.app, admin, Role.Manager);
    const employee = await createAccount(t.app, admin, Role.Employee);
    expect((await t.app.inject({ url: '/api/Admin/stats', headers: bearer(manager) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/Admin/stats', headers: bearer(employee) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/Admin/stats' })).statusCode).toBe(401);
  });
});
