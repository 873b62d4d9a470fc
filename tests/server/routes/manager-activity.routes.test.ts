import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ActivityAnswer, NEW_STATUS_ID } from '../../../contract/manager';
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

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const activity = (from: number, to: number, account: Account = manager) =>
  t.app.inject({
    url: `/api/Manager/activity?from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}`,
    headers: bearer(account),
  });

describe('GET /api/Manager/activity', () => {
  it("counts an employee's note and moves into Site Visit and Booking, logged by the status triggers", async () => {
    const worker = await createAccount(t.app, admin, Role.Employee);
    const lead = await insertLead(t.app, worker);
    const [siteVisit, booking, connected] = await Promise.all([
      optionId(t.app, 'client_statuses', 'Site Visit'),
      optionId(t.app, 'client_statuses', 'Booking'),
      optionId(t.app, 'call_statuses', 'Connected'),
    ]);
    const start = Date.now() - 1000;
    const note = await t.app.inject({
      method: 'POST',
      url: '/api/LeadStatus',
      payload: { leadId: lead, notes: 'Visit on Sunday', callStatusId: connected, clientStatusId: siteVisit },
      headers: bearer(worker),
    });
    expect(note.statusCode).toBe(201);
    const move = await t.app.inject({
      method: 'PUT',
      url: `/api/LeadStatus/leads/${lead}/status`,
      payload: { clientStatusId: booking },
      headers: bearer(worker),
    });
    expect(move.statusCode).toBe(200);
    const res = await activity(start, Date.now() + 1000);
    expect(res.statusCode).toBe(200);
    const answer: ActivityAnswer = res.json();
    expect(answer.employees.find((e) => e.registrationId === worker.id)).toEqual({
      registrationId: worker.id,
      email: worker.email,
      notes: 1,
      calls: 1,
      moves: 2,
      siteVisits: 1,
      bookings: 1,
      overdueFollowUps: 0,
      untouched7d: 0,
    });
    expect(answer.funnel.find((f) => f.clientStatusId === booking)).toMatchObject({ count: 1, reached: 1 });
    expect(answer.campaigns).toContainEqual({ siteVisit: 'Riverside Towers', leads: 1, bookings: 1 });
  });

  it('is for Managers and Admins; employees get 403; a reversed period is a 400', async () => {
    const worker = await createAccount(t.app, admin, Role.Employee);
    const now = Date.now();
    expect((await activity(now - DAY, now, admin)).statusCode).toBe(200);
    expect((await activity(now - DAY, now, worker)).statusCode).toBe(403);
    expect((await activity(now, now - DAY)).statusCode).toBe(400);
  });
});

describe('the figures equal a brute-force recount on random data', () => {
  it('for several periods', async () => {
    const db = t.app.deps.db;
    const rand = (k: number) => crypto.randomInt(k);
    const now = Date.now();
    const people = [
      await createAccount(t.app, admin, Role.Employee),
      await createAccount(t.app, admin, Role.Employee),
      await createAccount(t.app, admin, Role.Employee),
    ];
    const authors = [...people.map((p) => p.email), admin.email];
    const statuses = await db.selectFrom('client_statuses').select(['id', 'name']).execute();
    const calls = await db.selectFrom('call_statuses').select('id').execute();
    const campaigns = ['Riverside', 'Hill View', 'Lakeside', ''];
    const leadIds: number[] = [];
    const withRecord: { leadId: number; recordId: number }[] = [];
    for (let i = 0; i < 150; i++) {
      const holder = rand(4) === 0 ? null : people[rand(3)]!;
      const id = await insertLead(t.app, holder, {
        siteVisit: campaigns[rand(4)]!,
        createdAt: iso(now - rand(40 * DAY)),
        deleted: rand(15) === 0,
      });
      if (holder) {
        await db
          .updateTable('leads')
          .set({ assigned_date: iso(now - rand(20 * DAY)) })
          .where('id', '=', id)
          .execute();
      }
      leadIds.push(id);
      if (rand(3) > 0) {
        const at = iso(now - rand(30 * DAY));
        await db
          .insertInto('lead_statuses')
          .values({
            lead_id: id,
            call_status_id: calls[rand(calls.length)]!.id,
            client_status_id: statuses[rand(statuses.length)]!.id,
            location_id: null,
            configuration_id: null,
            client_priority_id: 1,
            token_id: 1,
            notes: 'x',
            call_date_time: at,
            created_by: authors[rand(4)]!,
            created_on: at,
            last_updated_by: authors[rand(4)]!,
            last_updated_on: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
          .then((r) => withRecord.push({ leadId: id, recordId: r.id }));
      }
    }
    const pick = () => leadIds[rand(leadIds.length)]!;
    for (let i = 0; i < 600; i++) {
      const target = withRecord[rand(withRecord.length)]!;
      await db
        .insertInto('lead_notes')
        .values({
          lead_id: target.leadId,
          lead_status_id: target.recordId,
          notes: 'n',
          call_status_id: calls[rand(calls.length)]!.id,
          client_status_id: statuses[rand(statuses.length)]!.id,
          location_id: null,
          configuration_id: null,
          call_date_time: null,
          created_by: authors[rand(4)]!,
          created_on: iso(now - rand(40 * DAY)),
        })
        .execute();
    }
    for (let i = 0; i < 300; i++) {
      await db
        .insertInto('lead_status_changes')
        .values({
          lead_id: pick(),
          from_status_id: null,
          to_status_id: statuses[rand(statuses.length)]!.id,
          changed_by: authors[rand(4)]!,
          changed_at: iso(now - rand(40 * DAY)),
        })
        .execute();
    }
    for (let i = 0; i < 80; i++) {
      const who = people[rand(3)]!;
      await db
        .insertInto('reminders')
        .values({
          lead_id: pick(),
          user_id: who.id,
          employee_email: who.email,
          reminder_time: iso(now - rand(20 * DAY) + 5 * DAY),
          note: '',
          is_sent: 0,
          created_by: who.email,
          created_on: iso(now - 30 * DAY),
          done_at: rand(3) === 0 ? iso(now - DAY) : null,
        })
        .execute();
    }

    // The recount, row by row in JavaScript.
    const leads = await db.selectFrom('leads').selectAll().execute();
    const records = await db.selectFrom('lead_statuses').selectAll().execute();
    const notes = await db.selectFrom('lead_notes').selectAll().execute();
    const changes = await db.selectFrom('lead_status_changes').selectAll().execute();
    const reminders = await db.selectFrom('reminders').selectAll().execute();
    const record = new Map(records.map((r) => [r.lead_id, r]));
    const live = leads.filter((l) => l.deleted_at === null);
    const idOf = (name: string) => statuses.find((s) => s.name === name)!.id;
    const weekAgo = iso(now - 7 * DAY);

    for (const [fromDays, toDays] of [
      [30, 0],
      [7, 0],
      [1, 0],
      [25, 10],
    ] as const) {
      const from = iso(now - fromDays * DAY);
      const to = iso(now - toDays * DAY + 60_000);
      const inPeriod = (at: string) => at >= from && at < to;
      const res = await activity(Date.parse(from), Date.parse(to));
      expect(res.statusCode).toBe(200);
      const answer: ActivityAnswer = res.json();
      // The answer's "now" is a moment after ours: nothing in the data sits between the two.
      for (const p of people) {
        const own = notes.filter((x) => x.created_by === p.email && inPeriod(x.created_on));
        const moved = changes.filter((c) => c.changed_by === p.email && inPeriod(c.changed_at));
        const held = live.filter((l) => l.assigned_to_id === p.id);
        expect(answer.employees.find((e) => e.registrationId === p.id)).toEqual({
          registrationId: p.id,
          email: p.email,
          notes: own.length,
          calls: own.length,
          moves: moved.length,
          siteVisits: moved.filter((c) => c.to_status_id === idOf('Site Visit')).length,
          bookings: moved.filter((c) => c.to_status_id === idOf('Booking')).length,
          overdueFollowUps: reminders.filter(
            (r) =>
              r.user_id === p.id &&
              held.some((l) => l.id === r.lead_id) &&
              r.reminder_time < iso(now) &&
              r.done_at === null,
          ).length,
          untouched7d: held.filter(
            (l) =>
              (record.get(l.id)?.last_updated_on ?? '') < weekAgo &&
              (l.assigned_date ?? l.created_at) < weekAgo,
          ).length,
        });
      }
      for (const step of answer.funnel) {
        const now = live.filter(
          (l) => (record.get(l.id)?.client_status_id ?? NEW_STATUS_ID) === step.clientStatusId,
        );
        const reached = new Set(
          changes
            .filter((c) => c.to_status_id === step.clientStatusId && inPeriod(c.changed_at))
            .map((c) => c.lead_id),
        );
        expect(step).toMatchObject({ count: now.length, reached: reached.size });
      }
      const created = live.filter((l) => inPeriod(l.created_at));
      const expected = [...new Set(created.map((l) => l.site_visit))].map((siteVisit) => {
        const mine = created.filter((l) => l.site_visit === siteVisit);
        return {
          siteVisit,
          leads: mine.length,
          bookings: mine.filter((l) => record.get(l.id)?.client_status_id === idOf('Booking')).length,
        };
      });
      expect([...answer.campaigns].sort((a, b) => a.siteVisit.localeCompare(b.siteVisit))).toEqual(
        expected.sort((a, b) => a.siteVisit.localeCompare(b.siteVisit)),
      );
    }
  });
});
