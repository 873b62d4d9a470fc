import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { type FollowUp, followUpMessages } from '../../../contract/follow-ups';
import { messages } from '../../../contract/messages';
import { Role } from '../../../contract/roles';
import { ConfigError, loadConfig } from '../../../server/config';
import { loadVapidKeys } from '../../../server/services/vapid-keys';
import { insertLead } from '../../helpers/leads';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

// Issue 15, Server: the push subscription calls and reminder done / snooze / lists
// (contract/follow-ups.ts). Delivery itself: tests/server/services/reminder-delivery.test.ts.

let t: TestApp;
let admin: Account;
let employee: Account;
let other: Account;

beforeAll(async () => {
  // No scan during these tests: they are about what the calls answer and store.
  t = await createTestApp({ REMINDER_SCAN_SECONDS: '3600' });
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
  other = await createAccount(t.app, admin, Role.Employee);
});
afterAll(() => t.close());

const keys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};
const subscribe = (who: Account, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/push/subscriptions', payload, headers: bearer(who) });
const unsubscribe = (who: Account, endpoint: string) =>
  t.app.inject({
    method: 'DELETE',
    url: '/api/push/subscriptions',
    payload: { endpoint },
    headers: bearer(who),
  });
const stored = (endpoint: string) =>
  t.app.deps.db.selectFrom('push_subscriptions').selectAll().where('endpoint', '=', endpoint).execute();

describe('push subscriptions', () => {
  it('answers the VAPID public key generated into the data dir on first start', async () => {
    const res = await t.app.inject({ url: '/api/push/public-key', headers: bearer(employee) });
    expect(res.statusCode).toBe(200);
    const file = path.join(t.config.dataDir, 'vapid.json');
    expect(res.json()).toEqual({ publicKey: JSON.parse(fs.readFileSync(file, 'utf8')).publicKey });
    expect(Buffer.from(res.json().publicKey, 'base64url')).toHaveLength(65);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // A restart on the same data dir signs with the same pair: subscriptions stay valid.
    expect(loadVapidKeys(t.config).publicKey).toBe(res.json().publicKey);
  });

  it('refuses to start with only one of VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY', () => {
    const { publicKey } = webpush.generateVAPIDKeys();
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: publicKey })).toThrow(ConfigError);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: 'short' })).toThrow(
      /VAPID_PUBLIC_KEY/,
    );
  });

  it('answers the key from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when they are set', async () => {
    const pair = webpush.generateVAPIDKeys();
    const t2 = await createTestApp({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey });
    try {
      const first = await createFirstAdmin(t2.app);
      const res = await t2.app.inject({ url: '/api/push/public-key', headers: bearer(first) });
      expect(res.json()).toEqual({ publicKey: pair.publicKey });
      expect(fs.existsSync(path.join(t2.config.dataDir, 'vapid.json'))).toBe(false);
    } finally {
      await t2.close();
    }
  });

  it('stores a subscription once per endpoint, however often it is sent', async () => {
    const endpoint = 'https://push.example.com/send/once';
    for (let i = 0; i < 2; i++) {
      const res = await subscribe(employee, { endpoint, expirationTime: null, keys });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ endpoint });
    }
    expect(await stored(endpoint)).toMatchObject([
      { user_id: employee.id, p256dh: keys.p256dh, auth: keys.auth },
    ]);
  });

  it('moves an endpoint to whoever subscribes it last, and only its owner removes it', async () => {
    const endpoint = 'https://push.example.com/send/shared-phone';
    await subscribe(employee, { endpoint, keys });
    await subscribe(other, { endpoint, keys });
    expect((await stored(endpoint)).map((s) => s.user_id)).toEqual([other.id]);

    expect((await unsubscribe(employee, endpoint)).statusCode).toBe(204);
    expect(await stored(endpoint)).toHaveLength(1);
    expect((await unsubscribe(other, endpoint)).statusCode).toBe(204);
    expect(await stored(endpoint)).toHaveLength(0);
    // Already gone: still what was asked for.
    expect((await unsubscribe(other, endpoint)).statusCode).toBe(204);
  });

  it.each([
    ['no endpoint', { keys }],
    ['an endpoint that is not a URL', { endpoint: 'not a url', keys }],
    ['an endpoint that is not http(s)', { endpoint: 'javascript:alert(1)', keys }],
    ['no keys', { endpoint: 'https://push.example.com/send/x' }],
    ['an empty auth key', { endpoint: 'https://push.example.com/send/x', keys: { ...keys, auth: '' } }],
  ])('refuses a subscription with %s as problem JSON', async (_what, payload) => {
    const res = await subscribe(employee, payload);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().message).toEqual(expect.any(String));
  });
});

describe('reminder lists and updates', () => {
  const addReminder = async (who: Account, leadId: number, reminderTime: string, note = '') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/LeadStatus/add-reminder',
      payload: { leadId, reminderTime, note },
      headers: bearer(who),
    });
    expect(res.statusCode).toBe(201);
    return res.json() as FollowUp & { message: string };
  };
  const update = (who: Account, id: number, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/LeadStatus/reminders/${id}`,
      payload,
      headers: { ...bearer(who), ...headers },
    });
  const list = async (who: Account, query = '') => {
    const res = await t.app.inject({ url: `/api/LeadStatus/reminders${query}`, headers: bearer(who) });
    expect(res.statusCode).toBe(200);
    return res.json() as FollowUp[];
  };
  const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

  it('answers a new reminder with the lead’s phone and its follow-up state', async () => {
    const lead = await insertLead(t.app, employee);
    const created = await addReminder(employee, lead.id, hoursFromNow(2), 'Send brochure');
    expect(created).toEqual({
      reminderId: expect.any(Number),
      leadId: lead.id,
      leadName: lead.name,
      leadPhone: lead.phone,
      employeeEmail: employee.email,
      reminderTime: expect.any(String),
      note: 'Send brochure',
      isSent: false,
      createdOn: expect.any(String),
      isDone: false,
      doneAt: null,
      sentAt: null,
      channels: [],
      message: messages.board.reminderSet,
    });
  });

  it('lists due (time passed, not done), upcoming (ahead, not done) and all (done too); no query is all', async () => {
    const u = await createAccount(t.app, admin, Role.Employee);
    const lead = await insertLead(t.app, u);
    const overdue = await addReminder(u, lead.id, hoursFromNow(-26));
    const dueNow = await addReminder(u, lead.id, hoursFromNow(-0.1));
    const ahead = await addReminder(u, lead.id, hoursFromNow(3));
    const finished = await addReminder(u, lead.id, hoursFromNow(-1));
    expect((await update(u, finished.reminderId, { done: true })).statusCode).toBe(200);

    const ids = (rows: FollowUp[]) => rows.map((r) => r.reminderId);
    expect(ids(await list(u, '?status=due'))).toEqual([overdue.reminderId, dueNow.reminderId]);
    expect(ids(await list(u, '?status=upcoming'))).toEqual([ahead.reminderId]);
    const all = [overdue.reminderId, finished.reminderId, dueNow.reminderId, ahead.reminderId];
    expect(ids(await list(u, '?status=all'))).toEqual(all);
    expect(ids(await list(u))).toEqual(all);
    expect((await list(u)).find((r) => r.reminderId === finished.reminderId)).toMatchObject({
      isDone: true,
      doneAt: expect.any(String),
    });
  });

  it('refuses an unknown status as problem JSON', async () => {
    const res = await t.app.inject({
      url: '/api/LeadStatus/reminders?status=late',
      headers: bearer(employee),
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('marks a reminder done once (a resend keeps the first time) and reopens it with done: false', async () => {
    const lead = await insertLead(t.app, employee);
    const r = await addReminder(employee, lead.id, hoursFromNow(1));
    const first = await update(employee, r.reminderId, { done: true });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      reminderId: r.reminderId,
      isDone: true,
      doneAt: expect.any(String),
    });
    const again = await update(employee, r.reminderId, { done: true });
    expect(again.json().doneAt).toBe(first.json().doneAt);

    const reopened = await update(employee, r.reminderId, { done: false });
    expect(reopened.json()).toMatchObject({ isDone: false, doneAt: null });
    expect((await list(employee, '?status=upcoming')).map((x) => x.reminderId)).toContain(r.reminderId);
  });

  it('snoozes a reminder to a new time, reopening it', async () => {
    const lead = await insertLead(t.app, employee);
    const r = await addReminder(employee, lead.id, hoursFromNow(-1));
    await update(employee, r.reminderId, { done: true });
    const res = await update(employee, r.reminderId, { snoozeUntil: '2031-03-04T10:00:00+05:30' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      reminderTime: '2031-03-04T04:30:00.000Z',
      isDone: false,
      isSent: false,
      sentAt: null,
      channels: [],
    });
    expect((await list(employee, '?status=due')).map((x) => x.reminderId)).not.toContain(r.reminderId);
  });

  it('replays a resent update with the same Idempotency-Key', async () => {
    const lead = await insertLead(t.app, employee);
    const r = await addReminder(employee, lead.id, hoursFromNow(1));
    const key = { 'idempotency-key': `snooze-${r.reminderId}` };
    const body = { snoozeUntil: hoursFromNow(5) };
    const first = await update(employee, r.reminderId, body, key);
    const second = await update(employee, r.reminderId, body, key);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
  });

  it.each([
    ['a time that is not a date', { snoozeUntil: 'tomorrow 10:00' }],
    ['a time without a zone', { snoozeUntil: '2031-03-04T10:00' }],
    ['an empty time', { snoozeUntil: '' }],
  ])('refuses a snooze to %s with errors.snoozeUntil', async (_what, payload) => {
    const lead = await insertLead(t.app, employee);
    const r = await addReminder(employee, lead.id, hoursFromNow(1));
    const res = await update(employee, r.reminderId, payload);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors.snoozeUntil).toEqual([messages.board.reminderTimeRequired]);
  });

  it.each([
    ['neither done nor snoozeUntil', {}],
    ['both done and snoozeUntil', { done: true, snoozeUntil: '2031-03-04T10:00:00Z' }],
    ['done that is not a boolean', { done: 'yes' }],
  ])('refuses an update with %s', async (_what, payload) => {
    const lead = await insertLead(t.app, employee);
    const r = await addReminder(employee, lead.id, hoursFromNow(1));
    const res = await update(employee, r.reminderId, payload);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('answers 404 for another employee’s reminder (Admin’s too), a deleted lead’s, or none, and changes nothing', async () => {
    const lead = await insertLead(t.app, employee);
    const r = await addReminder(employee, lead.id, hoursFromNow(1));
    for (const who of [other, admin]) {
      const res = await update(who, r.reminderId, { done: true });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().message).toBe(followUpMessages.reminderNotFound);
    }
    expect((await update(employee, 999_999, { done: true })).statusCode).toBe(404);
    expect((await list(employee)).find((x) => x.reminderId === r.reminderId)?.isDone).toBe(false);

    await t.app.deps.db
      .updateTable('leads')
      .set({ deleted_at: new Date().toISOString() })
      .where('id', '=', lead.id)
      .execute();
    expect((await update(employee, r.reminderId, { done: true })).statusCode).toBe(404);
  });
});
