import crypto from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import {
  type Account,
  bearer,
  buildRegistration,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
  validAadhaar,
} from '../../helpers/test-server';

// OWASP ASVS 8.2 / API3 (mass assignment): fields a caller may not set — ids, owners, roles,
// authors — are ignored or refused wherever a body carries them, and no answer of this file
// carries a password hash, a token version, a secret or an unmasked Aadhaar number.

let t: TestApp;
let admin: Account;
let employeeA: Account;
let employeeB: Account;
const aadhaars: string[] = [];
const jwtSecret = crypto.randomBytes(32).toString('hex');
const aadhaarKey = crypto.randomBytes(32).toString('hex');
/** Every answer body of this file, scanned for secrets by the last test. */
const bodies: { what: string; body: string }[] = [];

async function call(what: string, options: InjectOptions) {
  const res = await t.app.inject(options);
  bodies.push({ what, body: res.body });
  return res;
}
const phone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;

async function leadOf(owner: Account) {
  const res = await call('add lead', {
    method: 'POST',
    url: '/api/Admin/leads',
    headers: bearer(admin),
    payload: {
      name: `Lead ${crypto.randomBytes(3).toString('hex')}`,
      phoneNo: phone(),
      assignedTo: owner.email,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { leadID: number; name: string; assignedTo: string };
}

const leadRow = (id: number) =>
  t.app.deps.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  t = await createTestApp({ JWT_SECRET: jwtSecret, AADHAAR_KEY: aadhaarKey });
  aadhaars.push(validAadhaar(), validAadhaar(), validAadhaar());
  admin = await createFirstAdmin(t.app, { adharNo: aadhaars[0]! });
  employeeA = await createAccount(t.app, admin, Role.Employee, { adharNo: aadhaars[1]! });
  employeeB = await createAccount(t.app, admin, Role.Employee, { adharNo: aadhaars[2]! });
});
afterAll(() => t.close());

describe('extra fields in bodies are ignored or refused', () => {
  it("an employee's new lead is theirs: assignedTo, leadID and ids in the body change nothing", async () => {
    const bLead = await leadOf(employeeB);
    const res = await call('employee adds a lead', {
      method: 'POST',
      url: '/api/Admin/leads',
      headers: bearer(employeeA),
      payload: {
        name: 'Sneaky lead',
        phoneNo: phone(),
        assignedTo: employeeB.email,
        assignedDate: '2001-01-01T00:00:00.000Z',
        leadID: bLead.leadID,
        id: bLead.leadID,
        roleId: Role.Admin,
        registrationId: admin.id,
        createdBy: admin.email,
      },
    });
    expect(res.statusCode).toBe(201);
    const lead = res.json();
    expect(lead.assignedTo).toBe(employeeA.email);
    expect(lead.leadID).not.toBe(bLead.leadID);
    const row = await leadRow(lead.leadID);
    expect(row.assigned_to_id).toBe(employeeA.id);
    expect(row.created_by).not.toBe(admin.id);
    // B's lead with the id A tried to reuse is untouched.
    expect((await leadRow(bLead.leadID)).name).toBe(bLead.name);
    expect((await leadRow(bLead.leadID)).assigned_to_id).toBe(employeeB.id);
  });

  it('registration never takes an id, a token version or an active flag from the body', async () => {
    const body = {
      ...buildRegistration({ roleId: Role.Employee }),
      registrationId: admin.id,
      id: admin.id,
      token_version: 99,
      tokenVersion: 99,
      tv: 99,
      is_active: 0,
      password_hash: '$argon2id$v=19$m=1,t=1,p=1$AAAA$AAAA',
    };
    aadhaars.push(body.adharNo);
    const res = await call('register', {
      method: 'POST',
      url: '/api/Registration',
      headers: bearer(admin),
      payload: body,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().registrationId).not.toBe(admin.id);
    const row = await t.app.deps.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', res.json().registrationId)
      .executeTakeFirstOrThrow();
    expect(row.email).toBe(body.email);
    expect(row.token_version).toBe(0);
    expect(row.is_active).toBe(1);
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456/);
    // The Admin whose id was named is still who they were.
    const adminRow = await t.app.deps.db
      .selectFrom('users')
      .select(['email', 'role_id'])
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(adminRow).toEqual({ email: admin.email, role_id: Role.Admin });
    const login = await call('login', {
      method: 'POST',
      url: '/api/Registration/login',
      payload: { email: body.email, password: body.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it('signing in with roleId in the body does not raise the role', async () => {
    const res = await call('login with roleId', {
      method: 'POST',
      url: '/api/Registration/login',
      payload: { email: employeeA.email, password: employeeA.password, roleId: Role.Admin, tv: 5 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().roleId).toBe(Role.Employee);
    const upload = await call('upload as that token', {
      method: 'GET',
      url: '/api/Admin/employees',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(upload.statusCode).toBe(403);
  });

  it('an Admin edit keeps the id and the assignment, whatever leadID or assignedTo the body says', async () => {
    const aLead = await leadOf(employeeA);
    const bLead = await leadOf(employeeB);
    const res = await call('edit lead', {
      method: 'PUT',
      url: `/api/Leads/${aLead.leadID}`,
      headers: bearer(admin),
      payload: { ...aLead, name: 'Edited', leadID: bLead.leadID, assignedTo: employeeB.email },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ leadID: aLead.leadID, name: 'Edited', assignedTo: employeeA.email });
    expect((await leadRow(bLead.leadID)).name).toBe(bLead.name);
  });

  it("a status change names its lead in the path: a body leadId of someone else's lead is refused", async () => {
    const aLead = await leadOf(employeeA);
    const bLead = await leadOf(employeeB);
    const res = await call('status change', {
      method: 'PUT',
      url: `/api/LeadStatus/leads/${aLead.leadID}/status`,
      headers: bearer(employeeA),
      payload: { leadId: bLead.leadID, status: 'Interested', notes: 'First call' },
    });
    expect(res.statusCode).toBe(400);
    const statuses = await t.app.deps.db.selectFrom('lead_statuses').select('lead_id').execute();
    expect(statuses.map((s) => s.lead_id)).not.toContain(bLead.leadID);
    expect(statuses.map((s) => s.lead_id)).not.toContain(aLead.leadID);
  });

  it('notes and reminders are written as the caller, whatever createdBy, id or employeeEmail say', async () => {
    const aLead = await leadOf(employeeA);
    const bLead = await leadOf(employeeB);
    const ids = async (table: 'call_statuses' | 'client_statuses') =>
      (await t.app.deps.options.list(table))[0]!.id;
    const bNote = await call('B note', {
      method: 'POST',
      url: '/api/LeadStatus',
      headers: bearer(employeeB),
      payload: {
        leadId: bLead.leadID,
        notes: 'B’s own note',
        callStatusId: await ids('call_statuses'),
        clientStatusId: await ids('client_statuses'),
      },
    });
    expect(bNote.statusCode).toBe(201);
    const note = await call('A note', {
      method: 'POST',
      url: '/api/LeadStatus',
      headers: bearer(employeeA),
      payload: {
        id: bNote.json().leadStatusId,
        leadStatusId: bNote.json().leadStatusId,
        leadId: aLead.leadID,
        notes: 'Spoofed author',
        callStatusId: await ids('call_statuses'),
        clientStatusId: await ids('client_statuses'),
        createdBy: admin.email,
        lastUpdatedBy: admin.email,
      },
    });
    expect(note.statusCode).toBe(201);
    expect(note.json().leadStatusId).not.toBe(bNote.json().leadStatusId);
    const history = await call('A history', {
      method: 'GET',
      url: `/api/LeadStatus/leads/${aLead.leadID}/history`,
      headers: bearer(employeeA),
    });
    expect(history.json().map((h: { createdBy: string }) => h.createdBy)).toEqual([employeeA.email]);
    // B's status record still holds B's note.
    const bHistory = await call('B history', {
      method: 'GET',
      url: `/api/LeadStatus/leads/${bLead.leadID}/history`,
      headers: bearer(employeeB),
    });
    expect(bHistory.json().map((h: { notes: string }) => h.notes)).toEqual(['B’s own note']);

    const reminder = await call('A reminder', {
      method: 'POST',
      url: '/api/LeadStatus/add-reminder',
      headers: bearer(employeeA),
      payload: {
        leadId: aLead.leadID,
        employeeEmail: employeeB.email,
        createdBy: employeeB.email,
        reminderTime: new Date(Date.now() + 3_600_000).toISOString(),
        note: 'Call back',
      },
    });
    expect(reminder.statusCode).toBe(201);
    expect(reminder.json().employeeEmail).toBe(employeeA.email);
    const bReminders = await call('B reminders', {
      method: 'GET',
      url: '/api/LeadStatus/reminders',
      headers: bearer(employeeB),
    });
    expect(bReminders.json()).toEqual([]);
  });

  it('an assignment takes its employee from employeeId only, and only an active employee', async () => {
    const lead = await call('unassigned lead', {
      method: 'POST',
      url: '/api/Admin/leads',
      headers: bearer(admin),
      payload: { name: 'Unassigned', phoneNo: phone() },
    });
    const res = await call('assign to admin', {
      method: 'POST',
      url: '/api/Admin/assign',
      headers: bearer(admin),
      payload: { employeeId: admin.id, leadIds: [lead.json().leadID], assignedTo: employeeA.email },
    });
    expect(res.statusCode).toBe(400);
    expect((await leadRow(lead.json().leadID)).assigned_to_id).toBeNull();
  });
});

describe('no answer carries a secret', () => {
  it('reads every account list and lead list as every role', async () => {
    for (const who of [admin, employeeA, employeeB]) {
      for (const url of [
        '/api/Admin/leads',
        '/api/Admin/employees',
        '/api/Registration',
        '/api/LeadStatus/reminders',
      ]) {
        await call(`${url} as ${who.email}`, { method: 'GET', url, headers: bearer(who) });
      }
    }
    const openapi = await call('openapi', { method: 'GET', url: '/api/openapi.json' });
    expect(openapi.statusCode).toBe(200);
  });

  it('no password hash, token version, key or raw Aadhaar in any body of this file', () => {
    // Runs last: `bodies` holds every answer above.
    expect(bodies.length).toBeGreaterThan(30);
    const secrets = [
      '$argon2',
      'password_hash',
      'passwordHash',
      'token_version',
      'tokenVersion',
      '"tv"',
      'aadhaar_enc',
      'aadhaar_hash',
      jwtSecret,
      aadhaarKey,
      ...aadhaars,
    ];
    for (const { what, body } of bodies) {
      for (const secret of secrets) expect(body.includes(secret), `${what} carries ${secret}`).toBe(false);
    }
  });
});
