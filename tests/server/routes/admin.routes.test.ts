import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '../../../contract/admin';
import type { Lead } from '../../../contract/leads';
import { messages } from '../../../contract/messages';
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
let manager: Account;
let employee: Account;
let other: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  manager = await createAccount(t.app, admin, Role.Manager);
  employee = await createAccount(t.app, admin, Role.Employee, { email: 'b.employee@example.com' });
  other = await createAccount(t.app, admin, Role.Employee, { email: 'a.employee@example.com' });
});
afterAll(() => t.close());

const get = (url: string, account?: Account) =>
  t.app.inject({ url, headers: account ? bearer(account) : {} });
const post = (url: string, payload: object, account: Account = admin) =>
  t.app.inject({ method: 'POST', url, payload, headers: bearer(account) });

async function addLead(body: Record<string, unknown> = {}, account: Account = admin): Promise<Lead> {
  const res = await post('/api/Admin/leads', { name: 'Asha Verma', phoneNo: phone(), ...body }, account);
  if (res.statusCode !== 201) throw new Error(`add lead failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

describe('POST /api/Admin/leads', () => {
  it('adds an unassigned lead for an Admin and answers the whole lead JSON', async () => {
    const p = phone();
    const res = await post('/api/Admin/leads', {
      name: ' Neha Joshi ',
      phoneNo: `+91 ${p.slice(0, 5)}-${p.slice(5)}`,
      email: 'neha@example.com',
      siteVisit: 'Riverside',
      status: 'Interested',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      leadID: expect.any(Number),
      name: 'Neha Joshi',
      email: 'neha@example.com',
      phoneNo: p,
      contactNo: p,
      visitDateTime: null,
      configuration: '',
      siteVisit: 'Riverside',
      assignedTo: '',
      assignedDate: null,
      location: '',
      locationName: '',
      interestedIn: '',
      status: null,
      leadStatusId: null,
    });
  });

  it('assigns to the employee an Admin names, with the given or current date', async () => {
    const lead = await addLead({ assignedTo: employee.email, assignedDate: '2026-02-01T10:00:00.000Z' });
    expect(lead).toMatchObject({ assignedTo: employee.email, assignedDate: '2026-02-01T10:00:00.000Z' });
    const res = await post('/api/Admin/leads', { name: 'X', phoneNo: phone(), assignedTo: manager.email });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(adminMessages.assigneeUnknown);
  });

  it("always gives an employee's new lead to that employee", async () => {
    const lead = await addLead({ assignedTo: other.email }, employee);
    expect(lead.assignedTo).toBe(employee.email);
    expect(lead.assignedDate).not.toBeNull();
  });

  it.each([
    [{ name: '', phoneNo: '9876500001' }, messages.board.nameAndPhoneRequired, 'name'],
    [{ name: 'No Phone' }, messages.board.nameAndPhoneRequired, 'phoneNo'],
    [{ name: 'Bad Phone', phoneNo: '12345' }, adminMessages.phoneRule, 'phoneNo'],
    [{ name: 'Bad Email', phoneNo: '9876500002', email: 'nope' }, adminMessages.emailInvalid, 'email'],
  ])('refuses %j with its message', async (body, message, field) => {
    const res = await post('/api/Admin/leads', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(res.json().errors[field]).toContain(message);
  });

  it('answers 409 naming who holds a phone that a live lead already has', async () => {
    const held = await addLead({ assignedTo: employee.email });
    const again = await post('/api/Admin/leads', { name: 'Again', phoneNo: `0${held.phoneNo}` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      `A lead with this phone already exists (assigned to ${employee.email}).`,
    );
    const pool = await addLead();
    const poolAgain = await post('/api/Admin/leads', { name: 'Again', phoneNo: pool.phoneNo });
    expect(poolAgain.json().message).toBe('A lead with this phone already exists (unassigned).');
    // An employee is not told who holds a number, nor whether anyone does (issue 16).
    const byEmployee = await post('/api/Admin/leads', { name: 'Again', phoneNo: pool.phoneNo }, employee);
    expect(byEmployee.statusCode).toBe(409);
    expect(byEmployee.json().message).toBe('A lead with this phone already exists.');
  });

  it('lets exactly one of two simultaneous adds of a phone win', async () => {
    const p = phone();
    const answers = await Promise.all([
      post('/api/Admin/leads', { name: 'One', phoneNo: p }),
      post('/api/Admin/leads', { name: 'Two', phoneNo: p }, employee),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });

  it('accepts a phone again once the lead holding it was deleted', async () => {
    const lead = await addLead();
    await t.app.deps.db
      .updateTable('leads')
      .set({ deleted_at: new Date().toISOString() })
      .where('id', '=', lead.leadID)
      .execute();
    expect((await post('/api/Admin/leads', { name: 'Back', phoneNo: lead.phoneNo })).statusCode).toBe(201);
  });

  it('is not open to Managers or anonymous callers', async () => {
    expect((await post('/api/Admin/leads', { name: 'M', phoneNo: phone() }, manager)).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/leads',
      payload: { name: 'A', phoneNo: phone() },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /api/Admin/leads and /api/Admin/unassigned', () => {
  let leads: Lead[];
  beforeAll(async () => {
    leads = [];
    for (let i = 0; i < 4; i++)
      leads.push(await addLead({ name: `Listed ${i}`, siteVisit: 'List Campaign' }));
    leads.push(await addLead({ name: 'Listed Mine', assignedTo: employee.email }));
  });

  it('answers every live lead ordered by id, with its status name, and never a deleted one', async () => {
    const [first, , , , mine] = leads;
    const status = await t.app.deps.db
      .selectFrom('client_statuses')
      .select(['id', 'name'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const call = await t.app.deps.db.selectFrom('call_statuses').select('id').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const record = await t.app.deps.db
      .insertInto('lead_statuses')
      .values({
        lead_id: mine!.leadID,
        call_status_id: call.id,
        client_status_id: status.id,
        notes: 'called',
        client_priority_id: 1,
        token_id: 1,
        created_by: employee.email,
        created_on: now,
        last_updated_by: employee.email,
        last_updated_on: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.deps.db
      .updateTable('leads')
      .set({ deleted_at: now })
      .where('id', '=', first!.leadID)
      .execute();

    const res = await get('/api/Admin/leads', admin);
    expect(res.statusCode).toBe(200);
    const body: Lead[] = res.json();
    const ids = body.map((l) => l.leadID);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).not.toContain(first!.leadID);
    expect(body.find((l) => l.leadID === mine!.leadID)).toMatchObject({
      status: status.name,
      leadStatusId: record.id,
      assignedTo: employee.email,
    });
    expect(res.headers['x-total-count']).toBe(String(body.length));
  });

  it('lists only unassigned live leads on /unassigned', async () => {
    const body: Lead[] = (await get('/api/Admin/unassigned', admin)).json();
    expect(body.length).toBeGreaterThan(0);
    expect(body.every((l) => l.assignedTo === '')).toBe(true);
    expect(body.map((l) => l.leadID)).not.toContain(leads[0]!.leadID);
  });

  it('pages with page/pageSize or an afterId cursor, and searches, with the total in X-Total-Count', async () => {
    const all: Lead[] = (await get('/api/Admin/leads', admin)).json();
    const page2 = await get('/api/Admin/leads?page=2&pageSize=2', admin);
    expect(page2.json().map((l: Lead) => l.leadID)).toEqual(all.slice(2, 4).map((l) => l.leadID));
    expect(page2.headers['x-total-count']).toBe(String(all.length));

    const after = await get(`/api/Admin/leads?afterId=${all[1]!.leadID}&pageSize=3`, admin);
    expect(after.json().map((l: Lead) => l.leadID)).toEqual(all.slice(2, 5).map((l) => l.leadID));
    expect(after.headers['x-total-count']).toBe(String(all.length));

    const search = await get('/api/Admin/unassigned?search=LISTED%20', admin);
    expect(search.json().map((l: Lead) => l.name)).toEqual(['Listed 1', 'Listed 2', 'Listed 3']);
    expect(search.headers['x-total-count']).toBe('3');
    const literal = await get('/api/Admin/leads?search=%25', admin);
    expect(literal.json()).toEqual([]);
  });

  it('shows an employee only the leads assigned to them', async () => {
    const mine: Lead[] = (await get('/api/Admin/leads', employee)).json();
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((l) => l.assignedTo === employee.email)).toBe(true);
    const theirs: Lead[] = (await get('/api/Admin/leads', other)).json();
    expect(theirs.every((l) => l.assignedTo === other.email)).toBe(true);
    expect((await get('/api/Admin/unassigned', employee)).statusCode).toBe(403);
  });

  it('lets a Manager read and refuses anonymous callers', async () => {
    expect((await get('/api/Admin/leads', manager)).statusCode).toBe(200);
    expect((await get('/api/Admin/unassigned', manager)).statusCode).toBe(200);
    expect((await get('/api/Admin/leads')).statusCode).toBe(401);
  });
});

describe('GET /api/Admin/employees', () => {
  it('lists active employees by email, without admins, managers or deactivated accounts', async () => {
    const gone = await createAccount(t.app, admin, Role.Employee, { email: 'c.gone@example.com' });
    await t.app.deps.db.updateTable('users').set({ is_active: 0 }).where('id', '=', gone.id).execute();
    const res = await get('/api/Admin/employees', manager);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { registrationId: other.id, email: other.email },
      { registrationId: employee.id, email: employee.email },
    ]);
    expect((await get('/api/Admin/employees', employee)).statusCode).toBe(403);
  });
});

describe('POST /api/Admin/assign', () => {
  it('assigns unassigned leads to an employee, who then sees them', async () => {
    const [a, b] = [await addLead(), await addLead()];
    const res = await post('/api/Admin/assign', { employeeId: other.id, leadIds: [a.leadID, b.leadID] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ assigned: 2, message: messages.assign.success });
    const theirs: Lead[] = (await get('/api/Admin/leads', other)).json();
    expect(theirs.filter((l) => [a.leadID, b.leadID].includes(l.leadID))).toHaveLength(2);
    expect(theirs.find((l) => l.leadID === a.leadID)!.assignedDate).not.toBeNull();
  });

  it('changes nothing and answers 409 when one of the leads is already assigned', async () => {
    const free = await addLead();
    const taken = await addLead({ assignedTo: employee.email });
    const res = await post('/api/Admin/assign', {
      employeeId: other.id,
      leadIds: [free.leadID, taken.leadID],
    });
    expect(res.statusCode).toBe(409);
    // Issue 19: the title names the lead taken (was "Some leads are already assigned").
    expect(res.json().title).toBe(
      adminMessages.leadsTaken([{ name: taken.name, assignedTo: employee.email }], 2),
    );
    expect(res.json().takenLeadIds).toEqual([taken.leadID]);
    const unassigned: Lead[] = (await get('/api/Admin/unassigned', admin)).json();
    expect(unassigned.map((l) => l.leadID)).toContain(free.leadID);
  });

  it('answers 404 with a title for a lead that does not exist or was deleted', async () => {
    const free = await addLead();
    const res = await post('/api/Admin/assign', { employeeId: other.id, leadIds: [free.leadID, 999_999] });
    expect(res.statusCode).toBe(404);
    expect(res.json().title).toBe(adminMessages.leadsNotFound);
    expect((await get('/api/Admin/unassigned', admin)).json().map((l: Lead) => l.leadID)).toContain(
      free.leadID,
    );
  });

  it('refuses an unknown employee or an account that is not an employee, with a title', async () => {
    const free = await addLead();
    const unknown = await post('/api/Admin/assign', { employeeId: 999_999, leadIds: [free.leadID] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().title).toBe(adminMessages.employeeNotFound);
    const notEmployee = await post('/api/Admin/assign', { employeeId: manager.id, leadIds: [free.leadID] });
    expect(notEmployee.statusCode).toBe(400);
    expect(notEmployee.json().title).toBe(adminMessages.notAnEmployee);
  });

  it('refuses an empty selection with the spec message', async () => {
    const res = await post('/api/Admin/assign', { employeeId: other.id, leadIds: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.assign.needSelection);
  });

  it('lets only one of two admins assigning the same leads at once win, all or nothing', async () => {
    const second = await createAccount(t.app, admin, Role.Admin);
    for (let round = 0; round < 5; round++) {
      const batch = [await addLead(), await addLead(), await addLead()].map((l) => l.leadID);
      const [first, later] = await Promise.all([
        post('/api/Admin/assign', { employeeId: employee.id, leadIds: batch }, admin),
        post('/api/Admin/assign', { employeeId: other.id, leadIds: [...batch].reverse() }, second),
      ]);
      expect([first.statusCode, later.statusCode].sort()).toEqual([200, 409]);
      const winner = first.statusCode === 200 ? employee : other;
      const theirs: Lead[] = (await get('/api/Admin/leads', winner)).json();
      expect(theirs.filter((l) => batch.includes(l.leadID))).toHaveLength(3);
    }
  });

  it('is for Admins only', async () => {
    const free = await addLead();
    expect(
      (await post('/api/Admin/assign', { employeeId: other.id, leadIds: [free.leadID] }, manager)).statusCode,
    ).toBe(403);
    expect(
      (await post('/api/Admin/assign', { employeeId: other.id, leadIds: [free.leadID] }, employee))
        .statusCode,
    ).toBe(403);
  });
});
