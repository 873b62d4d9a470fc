import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadEditMessages } from '../../../contract/leads-list';
import { Role } from '../../../contract/roles';
import type { NewLead } from '../../../server/db/schema';
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
let manager: Account;
let employee: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  manager = await createAccount(t.app, admin, Role.Manager);
  employee = await createAccount(t.app, admin, Role.Employee);
});
afterAll(() => t.close());

const randomPhone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;

/** Leads arrive by upload in the product; here they are written straight to the table. */
async function insertLead(overrides: Partial<NewLead> = {}) {
  return t.app.deps.db
    .insertInto('leads')
    .values({
      name: 'Asha Verma',
      email: 'asha@example.com',
      phone: randomPhone(),
      configuration: '2 BHK',
      site_visit: 'Green Acres',
      location: 'Baner',
      interested_in: '2 BHK',
      created_at: new Date().toISOString(),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

const list = (query = '', account: Account = admin) =>
  t.app.inject({ url: `/api/Registration${query}`, headers: bearer(account) });
const put = (id: number, payload: object, account: Account = admin) =>
  t.app.inject({ method: 'PUT', url: `/api/Leads/${id}`, payload, headers: bearer(account) });
const del = (id: number, account: Account = admin) =>
  t.app.inject({ method: 'DELETE', url: `/api/Leads/${id}`, headers: bearer(account) });

describe('GET /api/Registration (the Leads List)', () => {
  it('answers leadID, name, email and contactNo of every live lead, oldest first', async () => {
    const a = await insertLead({ name: 'First Lead' });
    const b = await insertLead({ name: 'Second Lead', email: '' });
    const gone = await insertLead({ name: 'Deleted Lead', deleted_at: new Date().toISOString() });
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json() as { leadID: number }[];
    expect(body).toContainEqual({
      leadID: a.id,
      name: 'First Lead',
      email: 'asha@example.com',
      contactNo: a.phone,
    });
    expect(body).toContainEqual({ leadID: b.id, name: 'Second Lead', email: '', contactNo: b.phone });
    expect(body.map((l) => l.leadID)).not.toContain(gone.id);
    expect(body.map((l) => l.leadID)).toEqual([...body.map((l) => l.leadID)].sort((x, y) => x - y));
    expect(Object.keys(body[0]!).sort()).toEqual(['contactNo', 'email', 'leadID', 'name']);
    expect(res.headers['x-total-count']).toBe(String(body.length));
  });

  it('is for Admins and Managers only', async () => {
    expect((await t.app.inject({ url: '/api/Registration' })).statusCode).toBe(401);
    expect((await list('', employee)).statusCode).toBe(403);
    expect((await list('', manager)).statusCode).toBe(200);
  });

  it('searches name, email and phone case-insensitively and pages with X-Total-Count', async () => {
    const tag = `zq${crypto.randomBytes(3).toString('hex')}`;
    const byName = await insertLead({ name: `Ravi ${tag.toUpperCase()} Kumar` });
    const byEmail = await insertLead({ email: `${tag}@mail.example` });
    await insertLead({ name: 'Unrelated' });
    const res = await list(`?search=${tag}&page=1&pageSize=5`);
    expect(res.json().map((l: { leadID: number }) => l.leadID)).toEqual([byName.id, byEmail.id]);
    expect(res.headers['x-total-count']).toBe('2');

    const byPhone = await insertLead({ phone: '9012345678' });
    const phoneHit = await list('?search=0123456&page=1&pageSize=5');
    expect(phoneHit.json()).toEqual([
      expect.objectContaining({ leadID: byPhone.id, contactNo: '9012345678' }),
    ]);
  });

  it('matches % and _ literally', async () => {
    const tag = `pct${crypto.randomBytes(3).toString('hex')}`;
    const percent = await insertLead({ name: `${tag} 100% sure` });
    await insertLead({ name: `${tag} 100 sure` });
    const res = await list(`?search=${encodeURIComponent('100%')}&page=1&pageSize=5`);
    expect(res.json().map((l: { leadID: number }) => l.leadID)).toEqual([percent.id]);
    const underscore = await list(`?search=${encodeURIComponent(`${tag}_`)}`);
    expect(underscore.json()).toEqual([]);
  });

  it('answers one page of five by page number, and an empty page past the end', async () => {
    const tag = `pg${crypto.randomBytes(3).toString('hex')}`;
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await insertLead({ name: `${tag} lead ${i}` })).id);
    const page = (n: number) => list(`?search=${tag}&page=${n}&pageSize=5`);
    expect((await page(1)).json().map((l: { leadID: number }) => l.leadID)).toEqual(ids.slice(0, 5));
    const third = await page(3);
    expect(third.json().map((l: { leadID: number }) => l.leadID)).toEqual(ids.slice(10));
    expect(third.headers['x-total-count']).toBe('12');
    const past = await page(4);
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('12');
    // A search without page or pageSize answers every match, as the spec's client expects.
    expect((await list(`?search=${tag}`)).json()).toHaveLength(12);
  });

  it('refuses nonsense paging', async () => {
    expect((await list('?page=0')).statusCode).toBe(400);
    expect((await list('?pageSize=1000')).statusCode).toBe(400);
    expect((await list('?page=abc')).statusCode).toBe(400);
  });
});

describe('PUT /api/Leads/{leadID}', () => {
  it('replaces the name from the whole lead and answers the updated lead JSON', async () => {
    const lead = await insertLead({ assigned_to_id: employee.id, assigned_date: '2026-11-01T10:00:00.000Z' });
    const res = await put(lead.id, {
      leadID: lead.id,
      name: '  Asha V. Verma ',
      email: lead.email,
      contactNo: lead.phone,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      leadID: lead.id,
      name: 'Asha V. Verma',
      email: 'asha@example.com',
      phoneNo: lead.phone,
      contactNo: lead.phone,
      visitDateTime: null,
      configuration: '2 BHK',
      siteVisit: 'Green Acres',
      assignedTo: employee.email,
      assignedDate: '2026-11-01T10:00:00.000Z',
      location: 'Baner',
      locationName: 'Baner',
      interestedIn: '2 BHK',
      status: null,
      leadStatusId: null,
    });
    const listed = (await list()).json().find((l: { leadID: number }) => l.leadID === lead.id);
    expect(listed.name).toBe('Asha V. Verma');
  });

  it('edits the other fields, normalises the phone, and ignores ids, assignment and status', async () => {
    const lead = await insertLead();
    const res = await put(lead.id, {
      leadID: 999_999,
      name: 'Meera Shah',
      email: 'meera@example.com',
      phoneNo: '+91 98111-22334',
      contactNo: '098111 22334',
      visitDateTime: '2026-12-05T09:30:00Z',
      configuration: '3 BHK',
      siteVisit: 'Lake View',
      locationName: 'Wakad',
      interestedIn: '3 BHK',
      assignedTo: employee.email,
      status: 'Booking',
      leadStatusId: 42,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      leadID: lead.id,
      name: 'Meera Shah',
      email: 'meera@example.com',
      phoneNo: '9811122334',
      visitDateTime: '2026-12-05T09:30:00.000Z',
      configuration: '3 BHK',
      siteVisit: 'Lake View',
      location: 'Wakad',
      interestedIn: '3 BHK',
      assignedTo: '',
      status: null,
      leadStatusId: null,
    });
  });

  it('names what is wrong with a bad edit', async () => {
    const lead = await insertLead();
    const cases: [object, string, string][] = [
      [{ name: '   ' }, 'name', leadEditMessages.nameRequired],
      [{ name: 'X', email: 'not-an-email' }, 'email', leadEditMessages.emailInvalid],
      [{ name: 'X', contactNo: '12345' }, 'contactNo', leadEditMessages.phoneRule],
      [
        { name: 'X', contactNo: '9811122335', phoneNo: '9811122336' },
        'contactNo',
        leadEditMessages.phoneMismatch,
      ],
      [{ name: 'X', visitDateTime: 'next tuesday-ish' }, 'visitDateTime', leadEditMessages.dateInvalid],
    ];
    for (const [body, field, message] of cases) {
      const res = await put(lead.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[field]).toContain(message);
    }
    const unchanged = (await list()).json().find((l: { leadID: number }) => l.leadID === lead.id);
    expect(unchanged.name).toBe('Asha Verma');
  });

  it('answers 409 when another live lead has the phone, but a deleted one does not count', async () => {
    const taken = await insertLead();
    const deleted = await insertLead({ deleted_at: new Date().toISOString() });
    const lead = await insertLead();
    const res = await put(lead.id, { name: 'Dup', contactNo: taken.phone });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(leadEditMessages.phoneTaken);
    expect((await put(lead.id, { name: 'Reuse', contactNo: deleted.phone })).statusCode).toBe(200);
  });

  it('is for Admins only, and answers 404 for an unknown or deleted lead', async () => {
    const lead = await insertLead();
    expect((await put(lead.id, { name: 'Nope' }, manager)).statusCode).toBe(403);
    expect((await put(lead.id, { name: 'Nope' }, employee)).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: `/api/Leads/${lead.id}`,
      payload: { name: 'Nope' },
    });
    expect(anonymous.statusCode).toBe(401);
    const unknown = await put(987_654, { name: 'Ghost' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(leadEditMessages.notFound);
    await del(lead.id);
    expect((await put(lead.id, { name: 'Ghost' })).statusCode).toBe(404);
  });
});

describe('DELETE /api/Leads/{leadID}', () => {
  it('hides the lead from the list but keeps the row and its status history', async () => {
    const lead = await insertLead();
    const now = new Date().toISOString();
    const status = await t.app.deps.db
      .insertInto('lead_statuses')
      .values({
        lead_id: lead.id,
        call_status_id: 1,
        client_status_id: 1,
        client_priority_id: 1,
        token_id: 1,
        notes: 'Called, interested',
        created_by: employee.email,
        created_on: now,
        last_updated_by: employee.email,
        last_updated_on: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.deps.db
      .insertInto('lead_notes')
      .values({
        lead_id: lead.id,
        lead_status_id: status.id,
        notes: 'Called, interested',
        call_status_id: 1,
        client_status_id: 1,
        created_by: employee.email,
        created_on: now,
      })
      .execute();

    const res = await del(lead.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await list()).json().map((l: { leadID: number }) => l.leadID)).not.toContain(lead.id);

    const row = await t.app.deps.db
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', lead.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    const notes = await t.app.deps.db
      .selectFrom('lead_notes')
      .select('notes')
      .where('lead_id', '=', lead.id)
      .execute();
    expect(notes).toEqual([{ notes: 'Called, interested' }]);

    const again = await del(lead.id);
    expect(again.statusCode).toBe(404);
  });

  it('is for Admins only', async () => {
    const lead = await insertLead();
    expect((await del(lead.id, manager)).statusCode).toBe(403);
    expect((await del(lead.id, employee)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/Leads/${lead.id}` })).statusCode).toBe(401);
    expect((await list()).json().map((l: { leadID: number }) => l.leadID)).toContain(lead.id);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/leads/${lead.id}`, headers: bearer(admin) }))
        .statusCode,
    ).toBe(204);
  });
});

describe('GET /api/Search/leads (navbar search)', () => {
  const search = (q: string, account: Account) =>
    t.app.inject({ url: `/api/Search/leads?q=${encodeURIComponent(q)}`, headers: bearer(account) });

  it('finds every live lead for an Admin or Manager, and only their own for an employee', async () => {
    const tag = `nav${crypto.randomBytes(3).toString('hex')}`;
    const mine = await insertLead({ name: `${tag} Mine`, assigned_to_id: employee.id });
    const other = await insertLead({ name: `${tag} Unassigned` });
    await insertLead({
      name: `${tag} Deleted`,
      assigned_to_id: employee.id,
      deleted_at: new Date().toISOString(),
    });

    const asAdmin = await search(tag.toUpperCase(), admin);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().map((l: { leadID: number }) => l.leadID)).toEqual([mine.id, other.id]);
    expect((await search(tag, manager)).json()).toHaveLength(2);

    const asEmployee = await search(tag, employee);
    expect(asEmployee.json()).toEqual([
      { leadID: mine.id, name: `${tag} Mine`, email: mine.email, contactNo: mine.phone },
    ]);
    expect(asEmployee.headers['x-total-count']).toBe('1');
    expect((await search(mine.phone.slice(2, 8), employee)).json()).toContainEqual(
      expect.objectContaining({ leadID: mine.id }),
    );
  });

  it('needs a sign-in and a query', async () => {
    expect((await t.app.inject({ url: '/api/Search/leads?q=asha' })).statusCode).toBe(401);
    expect((await search('  ', admin)).statusCode).toBe(400);
  });
});
