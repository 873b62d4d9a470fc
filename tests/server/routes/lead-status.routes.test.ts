import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadStatusMessages } from '../../../contract/lead-status';
import { messages } from '../../../contract/messages';
import { Role } from '../../../contract/roles';
import type { App } from '../../../server/app';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

const m = messages.board;
let t: TestApp;
let admin: Account;
let employee: Account;
let other: Account;
let manager: Account;
let ids: {
  interested: number;
  siteVisit: number;
  booking: number;
  connected: number;
  busy: number;
  andheri: number;
  twoBhk: number;
};

/** A lead straight in the table: these tests are about status records, not about adding leads. */
async function insertLead(
  app: App,
  assignedTo: Account | null,
  overrides: { deleted?: boolean } = {},
): Promise<number> {
  const row = await app.deps.db
    .insertInto('leads')
    .values({
      name: `Lead ${crypto.randomBytes(3).toString('hex')}`,
      email: '',
      phone: `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`,
      visit_date_time: null,
      configuration: '2 BHK',
      site_visit: 'Riverside Towers',
      location: 'Andheri',
      interested_in: '',
      created_by: null,
      assigned_to_id: assignedTo?.id ?? null,
      assigned_date: assignedTo ? new Date().toISOString() : null,
      created_at: new Date().toISOString(),
      deleted_at: overrides.deleted ? new Date().toISOString() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const put = (account: Account, leadId: number, payload: object) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/LeadStatus/leads/${leadId}/status`,
    payload,
    headers: bearer(account),
  });
const postNote = (account: Account, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/LeadStatus', payload, headers: bearer(account) });
const history = (account: Account, leadId: number) =>
  t.app.inject({ url: `/api/LeadStatus/leads/${leadId}/history`, headers: bearer(account) });

function noteFor(leadId: number, overrides: object = {}) {
  return {
    leadId,
    notes: 'Called, wants a 2 BHK near the station',
    callDateTime: '2026-11-23T10:00:00.000Z',
    callStatusId: ids.connected,
    clientStatusId: ids.siteVisit,
    locationId: ids.andheri,
    configurationId: ids.twoBhk,
    clientPriorityId: 1,
    tokenId: 1,
    createdBy: 'someone-else@example.com',
    ...overrides,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
  other = await createAccount(t.app, admin, Role.Employee);
  manager = await createAccount(t.app, admin, Role.Manager);
  const { options } = t.app.deps;
  const id = async (table: Parameters<typeof options.list>[0], name: string) =>
    (await options.list(table)).find((o) => o.name === name)!.id;
  ids = {
    interested: await id('client_statuses', 'Interested'),
    siteVisit: await id('client_statuses', 'Site Visit'),
    booking: await id('client_statuses', 'Booking'),
    connected: await id('call_statuses', 'Connected'),
    busy: await id('call_statuses', 'Busy'),
    andheri: await id('locations', 'Andheri'),
    twoBhk: await id('configurations', '2 BHK'),
  };
});
afterAll(() => t.close());

describe('PUT /api/LeadStatus/leads/{id}/status', () => {
  it('asks for a note on the first move of a lead with no status record, and changes nothing', async () => {
    const leadId = await insertLead(t.app, employee);
    const res = await put(employee, leadId, {
      leadId,
      clientStatusId: ids.interested,
      updatedBy: employee.email,
    });
    expect(res.statusCode).toBe(409);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ requireNotePopup: true, message: m.requireNote, status: 409 });
    const blank = await put(employee, leadId, { clientStatusId: ids.interested, notes: '   ' });
    expect(blank.json().requireNotePopup).toBe(true);
    expect((await history(employee, leadId)).json()).toEqual([]);
  });

  it('creates the status record when the first move carries a note, and records the note', async () => {
    const leadId = await insertLead(t.app, employee);
    const res = await put(employee, leadId, {
      clientStatusId: ids.interested,
      notes: 'First call went well',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      leadStatusId: expect.any(Number),
      clientStatusId: ids.interested,
      status: 'Interested',
      message: m.statusUpdated,
    });
    const notes = (await history(employee, leadId)).json();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      notes: 'First call went well',
      clientStat: 'Interested',
      createdBy: employee.email,
    });
  });

  it('moves a lead that has a status record, keeping the same record, with or without a note', async () => {
    const leadId = await insertLead(t.app, employee);
    const first = (await postNote(employee, noteFor(leadId))).json();
    const move = await put(employee, leadId, {
      leadId,
      leadStatusId: first.leadStatusId,
      clientStatusId: ids.booking,
    });
    expect(move.statusCode).toBe(200);
    expect(move.json()).toMatchObject({
      leadStatusId: first.leadStatusId,
      clientStatusId: ids.booking,
      status: 'Booking',
    });
    expect((await history(employee, leadId)).json()).toHaveLength(1);

    const withNote = await put(employee, leadId, {
      clientStatusId: ids.interested,
      notes: 'Changed their mind',
    });
    expect(withNote.json().leadStatusId).toBe(first.leadStatusId);
    const notes = (await history(employee, leadId)).json();
    expect(notes.map((n: { notes: string }) => n.notes)).toEqual([
      'Changed their mind',
      'Called, wants a 2 BHK near the station',
    ]);
    const row = await t.app.deps.db
      .selectFrom('lead_statuses')
      .selectAll()
      .where('lead_id', '=', leadId)
      .execute();
    expect(row).toHaveLength(1);
    expect(row[0]).toMatchObject({ client_status_id: ids.interested, last_updated_by: employee.email });
  });

  it('accepts a status name from the older board, matched case-insensitively and trimmed', async () => {
    const leadId = await insertLead(t.app, employee);
    await postNote(employee, noteFor(leadId));
    const res = await put(employee, leadId, { leadId, status: '  site VISIT ', updatedBy: employee.email });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ clientStatusId: ids.siteVisit, status: 'Site Visit' });
  });

  it('refuses an unknown or missing client status and a leadId that contradicts the path', async () => {
    const leadId = await insertLead(t.app, employee);
    await postNote(employee, noteFor(leadId));
    const unknownName = await put(employee, leadId, { status: 'Sold to aliens' });
    expect(unknownName.statusCode).toBe(400);
    expect(unknownName.json().errors.clientStatusId).toEqual([leadStatusMessages.unknownClientStatus]);
    const unknownId = await put(employee, leadId, { clientStatusId: 999_999 });
    expect(unknownId.statusCode).toBe(400);
    const missing = await put(employee, leadId, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.clientStatusId).toEqual([m.clientStatusRequired]);
    const mismatch = await put(employee, leadId, { leadId: leadId + 1, clientStatusId: ids.booking });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe(leadStatusMessages.leadIdMismatch);
  });
});

describe('POST /api/LeadStatus (note record)', () => {
  it('creates the status record and its first note, answering the record id under leadStatusId and id', async () => {
    const leadId = await insertLead(t.app, employee);
    const res = await postNote(employee, noteFor(leadId));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      leadId,
      leadStatusId: expect.any(Number),
      callStatusId: ids.connected,
      clientStatusId: ids.siteVisit,
      status: 'Site Visit',
      message: m.noteSaved,
    });
    expect(body.id).toBe(body.leadStatusId);
    const [note] = (await history(employee, leadId)).json();
    expect(note).toMatchObject({
      leadStatusId: body.leadStatusId,
      notes: 'Called, wants a 2 BHK near the station',
      callStat: 'Connected',
      clientStat: 'Site Visit',
      locationName: 'Andheri',
      configurationType: '2 BHK',
      callDateTime: '2026-11-23T10:00:00.000Z',
      // The author is the signed-in user, whatever the body claims.
      createdBy: employee.email,
    });
  });

  it('updates the one status record on later notes, moving the lead, and keeps every note newest first', async () => {
    const leadId = await insertLead(t.app, employee);
    const first = (await postNote(employee, noteFor(leadId, { notes: 'one' }))).json();
    const second = (
      await postNote(
        employee,
        noteFor(leadId, { notes: 'two', clientStatusId: ids.booking, callStatusId: ids.busy }),
      )
    ).json();
    expect(second.leadStatusId).toBe(first.leadStatusId);
    expect(second).toMatchObject({ status: 'Booking', callStatusId: ids.busy });
    const notes = (await history(employee, leadId)).json();
    expect(notes.map((n: { notes: string }) => n.notes)).toEqual(['two', 'one']);
    expect(notes[0].clientStat).toBe('Booking');
  });

  it.each([
    ['a missing description', { notes: undefined }, 'Notes', m.descriptionRequired],
    ['a blank description', { notes: '   ' }, 'Notes', m.descriptionRequired],
    ['a missing call status', { callStatusId: undefined }, 'callStatusId', m.callStatusRequired],
    ['a missing client status', { clientStatusId: null }, 'clientStatusId', m.clientStatusRequired],
    ['an unknown location', { locationId: 999_999 }, 'locationId', leadStatusMessages.unknownLocation],
    [
      'an unknown configuration',
      { configurationId: 999_999 },
      'configurationId',
      leadStatusMessages.unknownConfiguration,
    ],
  ])('refuses %s with errors.%s', async (_what, override, key, message) => {
    const leadId = await insertLead(t.app, employee);
    const res = await postNote(employee, noteFor(leadId, override));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[key]).toEqual([message]);
    expect((await history(employee, leadId)).json()).toEqual([]);
  });

  it('accepts a note without location and configuration, as the older board sends it', async () => {
    const leadId = await insertLead(t.app, employee);
    const res = await postNote(employee, {
      leadId,
      notes: 'Quick call',
      callStatusId: ids.connected,
      clientStatusId: ids.interested,
    });
    expect(res.statusCode).toBe(201);
  });

  it('keeps both notes when two first notes for one lead arrive together', async () => {
    const leadId = await insertLead(t.app, employee);
    const [a, b] = await Promise.all([
      postNote(employee, noteFor(leadId, { notes: 'tab one' })),
      postNote(employee, noteFor(leadId, { notes: 'tab two' })),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().leadStatusId).toBe(b.json().leadStatusId);
    expect((await history(employee, leadId)).json()).toHaveLength(2);
  });
});

describe('reminders', () => {
  const addReminder = (account: Account, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/LeadStatus/add-reminder', payload, headers: bearer(account) });

  it('stores a reminder for the signed-in employee and lists it with the lead name, soonest first', async () => {
    const leadId = await insertLead(t.app, employee);
    const later = await addReminder(employee, {
      leadId,
      employeeEmail: 'spoofed@example.com',
      reminderTime: '2030-01-02T09:30:00.000Z',
      note: 'Send brochure',
      isSent: true,
    });
    expect(later.statusCode).toBe(201);
    expect(later.json()).toMatchObject({
      reminderId: expect.any(Number),
      leadId,
      employeeEmail: employee.email,
      reminderTime: '2030-01-02T09:30:00.000Z',
      note: 'Send brochure',
      isSent: false,
      message: m.reminderSet,
    });
    await addReminder(employee, { leadId, reminderTime: '2030-01-01T08:00:00+05:30' });
    const list = await t.app.inject({ url: '/api/LeadStatus/reminders', headers: bearer(employee) });
    expect(list.statusCode).toBe(200);
    const mine = list.json();
    expect(mine.map((r: { reminderTime: string }) => r.reminderTime)).toEqual([
      '2030-01-01T02:30:00.000Z',
      '2030-01-02T09:30:00.000Z',
    ]);
    expect(mine[0].leadName).toMatch(/^Lead /);
    const theirs = await t.app.inject({ url: '/api/LeadStatus/reminders', headers: bearer(other) });
    expect(theirs.json()).toEqual([]);
  });

  it.each([
    ['no time', {}],
    ['an empty time', { reminderTime: '' }],
    ['a time that is not a date', { reminderTime: 'tomorrow-ish' }],
  ])('refuses %s with the spec message', async (_what, override) => {
    const leadId = await insertLead(t.app, employee);
    const res = await addReminder(employee, { leadId, ...override });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.reminderTime).toEqual([m.reminderTimeRequired]);
  });
});

describe('who may touch a lead', () => {
  it("answers 404 to an employee for another employee's, an unassigned, a deleted or a missing lead", async () => {
    const theirs = await insertLead(t.app, other);
    const unassigned = await insertLead(t.app, null);
    const deleted = await insertLead(t.app, employee, { deleted: true });
    for (const leadId of [theirs, unassigned, deleted, 987_654]) {
      const calls = [
        put(employee, leadId, { clientStatusId: ids.booking, notes: 'x' }),
        postNote(employee, noteFor(leadId)),
        history(employee, leadId),
        t.app.inject({
          method: 'POST',
          url: '/api/LeadStatus/add-reminder',
          payload: { leadId, reminderTime: '2030-01-01T00:00:00Z' },
          headers: bearer(employee),
        }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, `lead ${leadId}`).toBe(404);
        expect(res.json().message).toBe(leadStatusMessages.leadNotFound);
      }
    }
    expect((await history(other, theirs)).json()).toEqual([]);
  });

  it('lets an Admin work any live lead, refuses Managers and anonymous callers', async () => {
    const theirs = await insertLead(t.app, other);
    expect((await postNote(admin, noteFor(theirs))).statusCode).toBe(201);
    const notes = (await history(admin, theirs)).json();
    expect(notes[0].createdBy).toBe(admin.email);
    expect((await put(manager, theirs, { clientStatusId: ids.booking })).statusCode).toBe(403);
    const anon = await t.app.inject({ url: `/api/LeadStatus/leads/${theirs}/history` });
    expect(anon.statusCode).toBe(401);
  });

  it('matches the paths case-insensitively', async () => {
    const leadId = await insertLead(t.app, employee);
    const res = await t.app.inject({
      url: `/api/leadstatus/LEADS/${leadId}/History`,
      headers: bearer(employee),
    });
    expect(res.statusCode).toBe(200);
  });
});
