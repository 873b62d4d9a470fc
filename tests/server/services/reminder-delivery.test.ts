import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FollowUp, followUpMessages, type ReminderPush } from '../../../contract/follow-ups';
import { Role } from '../../../contract/roles';
import { insertLead } from '../../helpers/leads';
import { decodeQuotedPrintable, type SmtpSink, startSmtpSink } from '../../helpers/mail';
import {
  createTestDevice,
  type FakePushService,
  readVapid,
  startFakePushService,
  type TestDevice,
} from '../../helpers/push-service';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

// Issue 15, Server: due reminders go out by Web Push to every device the employee enabled and by
// mail, once. A real push service stand-in on loopback and a real SMTP server receive them.
// Scans are run by the test (runOnce) so that each one is a known point in time.

let t: TestApp;
let push: FakePushService;
let smtp: SmtpSink;
let admin: Account;

beforeAll(async () => {
  push = await startFakePushService();
  smtp = await startSmtpSink();
  t = await createTestApp({
    REMINDER_SCAN_SECONDS: '3600',
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://leads.example.com',
  });
  admin = await createFirstAdmin(t.app);
});
afterAll(async () => {
  await t.close();
  await push.close();
  await smtp.close();
});
afterEach(() => {
  push.received.length = 0;
  smtp.received.length = 0;
  smtp.skipPending();
});

const scan = () => t.app.deps.followUps.reminderScheduler.runOnce();

async function employeeWithDevices(count: number) {
  const employee = await createAccount(t.app, admin, Role.Employee);
  const devices: TestDevice[] = [];
  for (let i = 0; i < count; i++) {
    const device = createTestDevice(push);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/push/subscriptions',
      payload: device.subscription,
      headers: bearer(employee),
    });
    expect(res.statusCode).toBe(201);
    devices.push(device);
  }
  return { employee, devices, lead: await insertLead(t.app, employee) };
}

/** A reminder whose time was half a minute ago: due at once, and recent enough to be sent. */
async function dueReminder(who: Account, leadId: number, note = 'Ask about the 2 BHK') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/LeadStatus/add-reminder',
    payload: { leadId, reminderTime: new Date(Date.now() - 30_000).toISOString(), note },
    headers: bearer(who),
  });
  expect(res.statusCode).toBe(201);
  return res.json() as FollowUp;
}

async function reminder(who: Account, id: number): Promise<FollowUp> {
  const res = await t.app.inject({ url: '/api/LeadStatus/reminders', headers: bearer(who) });
  return (res.json() as FollowUp[]).find((r) => r.reminderId === id)!;
}

const to = (device: TestDevice) => push.received.filter((p) => p.path === device.path);
const subscriptionCount = async (device: TestDevice) =>
  (
    await t.app.deps.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('endpoint', '=', device.subscription.endpoint)
      .execute()
  ).length;

describe('a due reminder', () => {
  it('is pushed once to each of the employee’s devices, encrypted, with TTL and VAPID, and mailed once', async () => {
    const { employee, devices, lead } = await employeeWithDevices(2);
    const bystander = await employeeWithDevices(1);
    const r = await dueReminder(employee, lead.id);

    await scan();
    await scan();

    expect(push.received).toHaveLength(2);
    expect(to(bystander.devices[0]!)).toHaveLength(0);
    const { publicKey } = (
      await t.app.inject({ url: '/api/push/public-key', headers: bearer(employee) })
    ).json() as { publicKey: string };
    for (const device of devices) {
      const [message] = to(device);
      expect(message).toBeDefined();
      expect(message!.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(message!.headers.ttl)).toBeGreaterThan(0);
      const vapid = readVapid(message!.headers.authorization);
      expect(vapid.claims.aud).toBe(push.origin);
      expect(vapid.publicKey).toBe(publicKey);
      expect(vapid.signatureValid).toBe(true);
      expect(vapid.claims.exp * 1000).toBeGreaterThan(Date.now());
      const payload = JSON.parse(device.decrypt(message!.body)) as ReminderPush;
      expect(payload).toEqual({
        type: 'reminder',
        reminderId: r.reminderId,
        leadId: lead.id,
        leadName: lead.name,
        phone: lead.phone,
        note: 'Ask about the 2 BHK',
        reminderTime: r.reminderTime,
        url: `/employee?lead=${lead.id}`,
      });
    }

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual([employee.email]);
    const text = decodeQuotedPrintable(mail.raw);
    expect(text).toContain(`Subject: ${followUpMessages.mailSubject(lead.name)}`);
    expect(text).toContain('Ask about the 2 BHK');
    expect(text).toContain(`https://leads.example.com/employee?lead=${lead.id}`);

    expect(await reminder(employee, r.reminderId)).toMatchObject({
      isSent: true,
      sentAt: expect.any(String),
      channels: ['push', 'mail'],
    });
  });

  it('is mailed, and recorded as mail only, when the employee enabled no device', async () => {
    const { employee, lead } = await employeeWithDevices(0);
    const r = await dueReminder(employee, lead.id);
    await scan();
    expect(push.received).toHaveLength(0);
    expect(smtp.received.map((m) => m.to)).toEqual([[employee.email]]);
    expect(await reminder(employee, r.reminderId)).toMatchObject({ isSent: true, channels: ['mail'] });
  });

  it.each([410, 404])(
    'deletes a subscription whose push service answers %i, and still mails',
    async (status) => {
      const { employee, devices, lead } = await employeeWithDevices(2);
      const [gone, kept] = devices as [TestDevice, TestDevice];
      push.answer(gone.path, status);
      const r = await dueReminder(employee, lead.id);
      await scan();

      expect(to(gone)).toHaveLength(1);
      expect(await subscriptionCount(gone)).toBe(0);
      expect(await subscriptionCount(kept)).toBe(1);
      expect(smtp.received).toHaveLength(1);
      expect(await reminder(employee, r.reminderId)).toMatchObject({
        isSent: true,
        channels: ['push', 'mail'],
      });

      // The next reminder goes to the device that is left only.
      await dueReminder(employee, lead.id);
      await scan();
      expect(to(gone)).toHaveLength(1);
      expect(to(kept)).toHaveLength(2);
    },
  );

  it('is pushed again after a push service failure, later, without a second mail', async () => {
    const { employee, devices, lead } = await employeeWithDevices(1);
    const device = devices[0]!;
    push.answer(device.path, 503);
    const r = await dueReminder(employee, lead.id);
    await scan();
    expect(to(device)).toHaveLength(1);
    expect(smtp.received).toHaveLength(1);
    expect(await reminder(employee, r.reminderId)).toMatchObject({ isSent: false, channels: ['mail'] });

    // Backoff: a scan straight away does not try again.
    await scan();
    expect(to(device)).toHaveLength(1);
    const row = await t.app.deps.db
      .selectFrom('reminders')
      .select(['next_send_at', 'attempts', 'last_error'])
      .where('id', '=', r.reminderId)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.next_send_at!)).toBeGreaterThan(Date.now());
    expect(row).toMatchObject({ attempts: 1, last_error: expect.stringContaining('503') });

    // Once the backoff has passed (moved here rather than waited for) the push goes out.
    push.answer(device.path, 201);
    await t.app.deps.db
      .updateTable('reminders')
      .set({ next_send_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', r.reminderId)
      .execute();
    await scan();
    expect(to(device)).toHaveLength(2);
    expect(smtp.received).toHaveLength(1);
    expect(await reminder(employee, r.reminderId)).toMatchObject({
      isSent: true,
      channels: ['push', 'mail'],
    });
  });

  it('keeps the push it sent and retries only the mail after a mail failure', async () => {
    // An app whose SMTP server refuses connections (port 9, discard, is closed on loopback).
    const failing = await createTestApp({ REMINDER_SCAN_SECONDS: '3600', SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      const first = await createFirstAdmin(failing.app);
      const e2 = await createAccount(failing.app, first, Role.Employee);
      const device = createTestDevice(push);
      await failing.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        payload: device.subscription,
        headers: bearer(e2),
      });
      const lead2 = await insertLead(failing.app, e2);
      const res = await failing.app.inject({
        method: 'POST',
        url: '/api/LeadStatus/add-reminder',
        payload: { leadId: lead2.id, reminderTime: new Date(Date.now() - 30_000).toISOString() },
        headers: bearer(e2),
      });
      await failing.app.deps.followUps.reminderScheduler.runOnce();
      expect(to(device)).toHaveLength(1);
      const row = await failing.app.deps.db
        .selectFrom('reminders')
        .select(['is_sent', 'sent_channels', 'last_error', 'next_send_at'])
        .where('id', '=', res.json().reminderId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        is_sent: 0,
        sent_channels: 'push',
        last_error: expect.stringContaining('mail'),
      });
      expect(row.next_send_at).not.toBeNull();
      // A scan before the backoff is over sends nothing, the push included.
      await failing.app.deps.followUps.reminderScheduler.runOnce();
      expect(to(device)).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });
});

describe('what is not sent', () => {
  it('a reminder that reached the server after its time (set offline): listed as due, never pushed', async () => {
    const { employee, lead } = await employeeWithDevices(1);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/LeadStatus/add-reminder',
      payload: { leadId: lead.id, reminderTime: new Date(Date.now() - 10 * 60_000).toISOString() },
      headers: bearer(employee),
    });
    await scan();
    expect(push.received).toHaveLength(0);
    expect(smtp.received).toHaveLength(0);
    const due = (
      await t.app.inject({ url: '/api/LeadStatus/reminders?status=due', headers: bearer(employee) })
    ).json() as FollowUp[];
    expect(due.map((r) => r.reminderId)).toEqual([res.json().reminderId]);
    expect(due[0]).toMatchObject({ isSent: false, channels: [] });
  });

  it('a reminder whose time passed longer ago than REMINDER_STALE_MINUTES (no node was running)', async () => {
    const { employee, lead } = await employeeWithDevices(1);
    const r = await dueReminder(employee, lead.id);
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
    await t.app.deps.db
      .updateTable('reminders')
      .set({ reminder_time: twoHoursAgo, next_send_at: twoHoursAgo })
      .where('id', '=', r.reminderId)
      .execute();
    await scan();
    expect(push.received).toHaveLength(0);
    expect(smtp.received).toHaveLength(0);
    expect(await reminder(employee, r.reminderId)).toMatchObject({ isSent: false, isDone: false });
  });

  it('a reminder marked done before its time', async () => {
    const { employee, lead } = await employeeWithDevices(1);
    const r = await dueReminder(employee, lead.id);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/LeadStatus/reminders/${r.reminderId}`,
      payload: { done: true },
      headers: bearer(employee),
    });
    expect(res.statusCode).toBe(200);
    await scan();
    expect(push.received).toHaveLength(0);
    expect(smtp.received).toHaveLength(0);
  });

  it('a reminder on a lead since given to another employee, or deleted', async () => {
    const { employee, lead } = await employeeWithDevices(1);
    const other = await employeeWithDevices(0);
    await dueReminder(employee, lead.id);
    await t.app.deps.db
      .updateTable('leads')
      .set({ assigned_to_id: other.employee.id })
      .where('id', '=', lead.id)
      .execute();
    const second = await insertLead(t.app, employee);
    await dueReminder(employee, second.id);
    await t.app.deps.db
      .updateTable('leads')
      .set({ deleted_at: new Date().toISOString() })
      .where('id', '=', second.id)
      .execute();
    await scan();
    expect(push.received).toHaveLength(0);
    expect(smtp.received).toHaveLength(0);
  });
});

describe('snooze', () => {
  const snooze = (who: Account, id: number, snoozeUntil: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/LeadStatus/reminders/${id}`,
      payload: { snoozeUntil },
      headers: bearer(who),
    });

  it('re-arms push and mail for the new time', async () => {
    const { employee, devices, lead } = await employeeWithDevices(1);
    const r = await dueReminder(employee, lead.id);
    await scan();
    expect(to(devices[0]!)).toHaveLength(1);
    expect(smtp.received).toHaveLength(1);

    // Snoozed to an hour ahead: nothing now.
    const later = await snooze(employee, r.reminderId, new Date(Date.now() + 3_600_000).toISOString());
    expect(later.json()).toMatchObject({ isSent: false, sentAt: null, channels: [] });
    await scan();
    expect(to(devices[0]!)).toHaveLength(1);

    // Snoozed to a time that has just come: it fires again, once.
    await snooze(employee, r.reminderId, new Date(Date.now() - 10_000).toISOString());
    await scan();
    await scan();
    expect(to(devices[0]!)).toHaveLength(2);
    expect(smtp.received).toHaveLength(2);
    expect(await reminder(employee, r.reminderId)).toMatchObject({
      isSent: true,
      channels: ['push', 'mail'],
    });
  });
});

describe('the scheduler', () => {
  it('scans by itself every REMINDER_SCAN_SECONDS, and the app closes while it runs', async () => {
    const own = await createTestApp({ REMINDER_SCAN_SECONDS: '0.1', SMTP_URL: smtp.url });
    try {
      const first = await createFirstAdmin(own.app);
      const employee = await createAccount(own.app, first, Role.Employee);
      const device = createTestDevice(push);
      await own.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        payload: device.subscription,
        headers: bearer(employee),
      });
      const lead = await insertLead(own.app, employee);
      await own.app.inject({
        method: 'POST',
        url: '/api/LeadStatus/add-reminder',
        payload: { leadId: lead.id, reminderTime: new Date(Date.now() + 300).toISOString() },
        headers: bearer(employee),
      });
      await push.waitFor(1);
      expect(to(device)).toHaveLength(1);
    } finally {
      await own.close();
    }
  });
});
