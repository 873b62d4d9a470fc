import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { Role } from '../../../contract/roles';
import { type StaffMember, staffMessages } from '../../../contract/staff';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { insertLead, optionId } from './staff-support';

let t: TestApp;
let admin: Account;
let manager: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  manager = await createAccount(t.app, admin, Role.Manager);
});
afterAll(() => t.close());

const get = (url: string, account: Account) => t.app.inject({ url, headers: bearer(account) });
const post = (url: string, payload: object, account: Account = admin) =>
  t.app.inject({ method: 'POST', url, payload, headers: bearer(account) });
const login = (account: Account) =>
  t.app.inject({
    method: 'POST',
    url: '/api/Registration/login',
    payload: { email: account.email, password: account.password },
  });
const employee = () => createAccount(t.app, admin, Role.Employee);
const staffList = async (): Promise<StaffMember[]> => (await get('/api/Admin/staff', admin)).json();
const member = async (account: Account) => (await staffList()).find((m) => m.registrationId === account.id)!;
const holderOf = async (leadId: number) =>
  (
    await t.app.deps.db
      .selectFrom('leads')
      .select('assigned_to_id')
      .where('id', '=', leadId)
      .executeTakeFirstOrThrow()
  ).assigned_to_id;
/** The ids of the leads an account's board shows (its own GET /api/Admin/leads). */
const boardOf = async (account: Account): Promise<number[]> =>
  (await get('/api/Admin/leads', account)).json().map((l: { leadID: number }) => l.leadID);

describe('GET /api/Admin/staff', () => {
  it('lists every account with role, contact, masked Aadhaar, open leads, touched leads and last sign-in', async () => {
    const worker = await employee();
    const leads = [
      await insertLead(t.app, worker),
      await insertLead(t.app, worker),
      await insertLead(t.app, worker),
    ];
    await insertLead(t.app, worker, { deleted: true });
    const note = await post(
      '/api/LeadStatus',
      {
        leadId: leads[0],
        notes: 'Called, wants a visit',
        callStatusId: await optionId(t.app, 'call_statuses', 'Connected'),
        clientStatusId: await optionId(t.app, 'client_statuses', 'Interested'),
      },
      worker,
    );
    expect(note.statusCode).toBe(201);

    const res = await get('/api/Admin/staff', manager);
    expect(res.statusCode).toBe(200);
    const row = (res.json() as StaffMember[]).find((m) => m.registrationId === worker.id);
    expect(row).toEqual({
      registrationId: worker.id,
      email: worker.email,
      roleId: Role.Employee,
      contact: expect.stringMatching(/^\d{10}$/),
      aadhaar: expect.stringMatching(/^XXXX XXXX \d{4}$/),
      active: true,
      openLeads: 3,
      touched7d: 1,
      lastSignInAt: expect.any(String),
    });
    expect(Date.now() - Date.parse(row!.lastSignInAt!)).toBeLessThan(60_000);
    expect(res.body).not.toMatch(/\d{12}/);
  });

  it('is refused to employees', async () => {
    expect((await get('/api/Admin/staff', await employee())).statusCode).toBe(403);
  });
});

describe('deactivate and reactivate', () => {
  it('kills the tokens at once, refuses sign-in with a clear message, and keeps the data', async () => {
    const leaving = await employee();
    const lead = await insertLead(t.app, leaving);
    expect((await boardOf(leaving)).includes(lead)).toBe(true);

    const now = new Date().toISOString();
    await t.app.deps.db
      .insertInto('push_subscriptions')
      .values({
        user_id: leaving.id,
        endpoint: `https://push.example.com/${leaving.id}`,
        p256dh: 'key',
        auth: 'auth',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const res = await post(`/api/Admin/staff/${leaving.id}/deactivate`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      registrationId: leaving.id,
      active: false,
      message: staffMessages.deactivated,
    });

    // Its devices get no more reminder pushes.
    const devices = await t.app.deps.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('user_id', '=', leaving.id)
      .execute();
    expect(devices).toEqual([]);
    expect((await get('/api/Admin/leads', leaving)).statusCode).toBe(401);
    const refused = await login(leaving);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.login.deactivated);
    // Out of the employee dropdown; the lead stays with them until reassigned.
    const dropdown = (await get('/api/Admin/employees', admin)).json() as { registrationId: number }[];
    expect(dropdown.map((e) => e.registrationId)).not.toContain(leaving.id);
    expect(await holderOf(lead)).toBe(leaving.id);
    expect(await member(leaving)).toMatchObject({ active: false, openLeads: 1 });
  });

  it('takes the account out of auto-assign', async () => {
    const leaving = await employee();
    await post(`/api/Admin/staff/${leaving.id}/deactivate`, {});
    const loads = await t.app.deps.db.transaction().execute((trx) => t.app.deps.assignment.balancer(trx));
    expect(loads.loads().map((l) => l.id)).not.toContain(leaving.id);
    const add = await post('/api/Admin/leads', {
      name: 'Walk-in',
      phoneNo: '9876012345',
      assignedTo: leaving.email,
    });
    expect(add.statusCode).toBe(400);
  });

  it('reactivates with a fresh token version: the old token stays dead, a new sign-in works', async () => {
    const back = await employee();
    await post(`/api/Admin/staff/${back.id}/deactivate`, {});
    const res = await post(`/api/Admin/staff/${back.id}/reactivate`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ active: true, message: staffMessages.reactivated });
    expect((await get('/api/Admin/leads', back)).statusCode).toBe(401);
    const fresh = await login(back);
    expect(fresh.statusCode).toBe(200);
    expect((await get('/api/Admin/leads', { ...back, token: fresh.json().token })).statusCode).toBe(200);
  });

  it('refuses to deactivate the last active Admin (409), and lets an Admin go while another stays', async () => {
    const last = await post(`/api/Admin/staff/${admin.id}/deactivate`, {});
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe(staffMessages.lastAdmin);
    expect((await get('/api/Admin/staff', admin)).statusCode).toBe(200);

    const second = await createAccount(t.app, admin, Role.Admin);
    expect((await post(`/api/Admin/staff/${second.id}/deactivate`, {})).statusCode).toBe(200);
    expect((await post(`/api/Admin/staff/${admin.id}/deactivate`, {})).statusCode).toBe(409);
    await post(`/api/Admin/staff/${second.id}/reactivate`, {});
    // Two active Admins: one may leave, even on their own, and their token dies with it.
    const again = { ...second, token: (await login(second)).json().token };
    expect((await post(`/api/Admin/staff/${again.id}/deactivate`, {}, again)).statusCode).toBe(200);
    expect((await get('/api/Admin/staff', again)).statusCode).toBe(401);
  });

  it('keeps one Admin when the last two deactivate each other at the same moment', async () => {
    const other = await createAccount(t.app, admin, Role.Admin);
    const [a, b] = await Promise.all([
      post(`/api/Admin/staff/${other.id}/deactivate`, {}, admin),
      post(`/api/Admin/staff/${admin.id}/deactivate`, {}, other),
    ]);
    const admins = await t.app.deps.db
      .selectFrom('users')
      .select('id')
      .where('role_id', '=', Role.Admin)
      .where('is_active', '=', 1)
      .execute();
    expect(admins).toHaveLength(1);
    expect([a.statusCode, b.statusCode].sort()).toContain(200);
    if (admins[0]!.id !== admin.id) {
      await post(
        `/api/Admin/staff/${admin.id}/reactivate`,
        {},
        { ...other, token: (await login(other)).json().token },
      );
      admin = { ...admin, token: (await login(admin)).json().token };
    }
  });

  it('answers 404 for an unknown account and 403 to a Manager', async () => {
    expect((await post('/api/Admin/staff/999999/deactivate', {})).statusCode).toBe(404);
    const someone = await employee();
    expect((await post(`/api/Admin/staff/${someone.id}/deactivate`, {}, manager)).statusCode).toBe(403);
  });
});
