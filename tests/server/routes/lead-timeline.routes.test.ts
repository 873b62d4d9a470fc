import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadTimeline, TimelineEvent } from '../../../contract/lead-timeline';
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

let t: TestApp;
let admin: Account;
let manager: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  manager = await createAccount(t.app, admin, Role.Manager);
});
afterAll(() => t.close());

const send = (method: 'POST' | 'PUT', url: string, payload: object, who: Account) =>
  t.app.inject({ method, url, payload, headers: bearer(who) });
const timeline = (leadId: number, who: Account) =>
  t.app.inject({ url: `/api/Leads/${leadId}/timeline`, headers: bearer(who) });
const employee = () => createAccount(t.app, admin, Role.Employee);
const pause = () => new Promise((r) => setTimeout(r, 5));

describe('GET /api/Leads/{id}/timeline', () => {
  it('tells a lead’s story in order: added, assigned, status, note, reminder, rename, reassigned', async () => {
    const first = await employee();
    const second = await employee();
    const interested = await optionId(t.app, 'client_statuses', 'Interested');
    const siteVisit = await optionId(t.app, 'client_statuses', 'Site Visit');
    const callStatus = await t.app.deps.db
      .selectFrom('call_statuses')
      .select(['id', 'name'])
      .executeTakeFirstOrThrow();

    const added = await send('POST', '/api/Admin/leads', { name: 'Asha Rao', phoneNo: '98765 43210' }, admin);
    expect(added.statusCode).toBe(201);
    const leadId: number = added.json().leadID;
    await pause();
    expect(
      (await send('POST', '/api/Admin/assign', { employeeId: first.id, leadIds: [leadId] }, admin))
        .statusCode,
    ).toBe(200);
    await pause();
    const noted = await send(
      'POST',
      '/api/LeadStatus',
      {
        leadId,
        notes: 'Wants a 2 BHK near the station',
        callStatusId: callStatus.id,
        clientStatusId: interested,
      },
      first,
    );
    expect(noted.statusCode).toBeLessThan(300);
    await pause();
    const remindAt = new Date(Date.now() + 86_400_000).toISOString();
    const reminder = await send(
      'POST',
      '/api/LeadStatus/add-reminder',
      { leadId, reminderTime: remindAt, note: 'Call back' },
      first,
    );
    expect(reminder.statusCode).toBe(201);
    await pause();
    const moved = await send(
      'PUT',
      `/api/LeadStatus/leads/${leadId}/status`,
      { clientStatusId: siteVisit, notes: 'Visit booked' },
      first,
    );
    expect(moved.statusCode).toBe(200);
    await pause();
    expect((await send('PUT', `/api/Leads/${leadId}`, { name: 'Asha R. Rao' }, admin)).statusCode).toBe(200);
    await pause();
    const done = await send(
      'PUT',
      `/api/LeadStatus/reminders/${reminder.json().reminderId}`,
      { done: true },
      first,
    );
    expect(done.statusCode).toBe(200);
    await pause();
    const re = await send(
      'POST',
      '/api/Admin/reassign',
      { fromEmployeeId: first.id, toEmployeeId: second.id, leadIds: [leadId] },
      admin,
    );
    expect(re.statusCode).toBe(200);

    const res = await timeline(leadId, admin);
    expect(res.statusCode).toBe(200);
    const story = res.json() as LeadTimeline;
    expect(story.lead).toMatchObject({
      leadID: leadId,
      name: 'Asha R. Rao',
      status: 'Site Visit',
      assignedTo: second.email,
    });
    expect(story.holder).toEqual({ registrationId: second.id, email: second.email });
    expect(story.nextFollowUp).toBeNull();
    // Only what the product shows: the type and the essentials, oldest first.
    const brief = story.events.map((e: TimelineEvent) => {
      switch (e.type) {
        case 'created':
          return ['created', e.by?.email];
        case 'assigned':
          return ['assigned', e.to.email, e.by?.email];
        case 'reassigned':
          return ['reassigned', e.from?.email, e.to?.email, e.by?.email];
        case 'status':
          return ['status', e.from?.name ?? null, e.to.name, e.by.email];
        case 'note':
          return ['note', e.text, e.callStatus, e.by.email];
        case 'reminder-set':
          return ['reminder-set', e.remindAt, e.note, e.by.email];
        case 'reminder-done':
          return ['reminder-done', e.by.email];
        case 'name-changed':
          return ['name-changed', e.from, e.to, e.by?.email];
        default:
          return [e.type];
      }
    });
    expect(brief).toEqual([
      ['created', admin.email],
      ['assigned', first.email, admin.email],
      ['status', null, 'Interested', first.email],
      ['note', 'Wants a 2 BHK near the station', callStatus.name, first.email],
      ['reminder-set', remindAt, 'Call back', first.email],
      ['status', 'Interested', 'Site Visit', first.email],
      // A move with a note keeps the note too, under the lead's call status.
      ['note', 'Visit booked', callStatus.name, first.email],
      ['name-changed', 'Asha Rao', 'Asha R. Rao', admin.email],
      ['reminder-done', first.email],
      ['reassigned', first.email, second.email, admin.email],
    ]);
    const times = story.events.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('names the upload an imported lead came from, and its first holder and next follow-up', async () => {
    const holder = await employee();
    const now = new Date().toISOString();
    const upload = await t.app.deps.db
      .insertInto('lead_imports')
      .values({ created_at: now, created_by: admin.id, file_name: 'october-expo.xlsx', assigned: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const leadId = await insertLead(t.app, holder, { createdAt: now });
    await t.app.deps.db.updateTable('leads').set({ import_id: upload.id }).where('id', '=', leadId).execute();
    const later = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const sooner = new Date(Date.now() + 86_400_000).toISOString();
    for (const reminderTime of [later, sooner]) {
      const r = await send(
        'POST',
        '/api/LeadStatus/add-reminder',
        { leadId, reminderTime, note: reminderTime },
        holder,
      );
      expect(r.statusCode).toBe(201);
    }

    const story = (await timeline(leadId, holder)).json() as LeadTimeline;
    expect(story.events[0]).toEqual({
      type: 'imported',
      at: now,
      by: { registrationId: admin.id, email: admin.email },
      importId: upload.id,
      fileName: 'october-expo.xlsx',
    });
    expect(story.events[1]).toMatchObject({ type: 'assigned', to: { registrationId: holder.id }, by: null });
    expect(story.nextFollowUp).toMatchObject({ at: sooner, note: sooner });
    expect(story.events.filter((e) => e.type === 'reminder-set')).toHaveLength(2);
  });

  it('shows an employee only the leads they hold now; admins and managers every live lead', async () => {
    const holder = await employee();
    const other = await employee();
    const leadId = await insertLead(t.app, holder);
    expect((await timeline(leadId, holder)).statusCode).toBe(200);
    expect((await timeline(leadId, manager)).statusCode).toBe(200);
    expect((await timeline(leadId, admin)).statusCode).toBe(200);
    const refused = await timeline(leadId, other);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('Lead not found.');

    const unassigned = await insertLead(t.app, null);
    expect((await timeline(unassigned, holder)).statusCode).toBe(404);
    expect((await timeline(unassigned, admin)).json().holder).toBeNull();

    const deleted = await insertLead(t.app, holder, { deleted: true });
    expect((await timeline(deleted, holder)).statusCode).toBe(404);
    expect((await timeline(deleted, admin)).statusCode).toBe(404);
    expect((await timeline(999_999_999, admin)).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/Leads/${leadId}/timeline` })).statusCode).toBe(401);
  });

  it('drops the lead from the old holder once it is reassigned', async () => {
    const from = await employee();
    const to = await employee();
    const leadId = await insertLead(t.app, from);
    expect((await timeline(leadId, from)).statusCode).toBe(200);
    await send('POST', '/api/Admin/reassign', { fromEmployeeId: from.id, toEmployeeId: to.id }, admin);
    expect((await timeline(leadId, from)).statusCode).toBe(404);
    const story = (await timeline(leadId, to)).json() as LeadTimeline;
    expect(story.events.map((e) => e.type)).toEqual(['created', 'assigned', 'reassigned']);
    expect(story.events[1]).toMatchObject({ type: 'assigned', to: { registrationId: from.id }, by: null });
  });
});
