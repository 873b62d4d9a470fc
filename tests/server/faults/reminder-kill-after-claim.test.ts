import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReminderPush } from '../../../contract/follow-ups';
import { type SmtpSink, startSmtpSink } from '../../helpers/mail';
import { type FakePushService, startFakePushService } from '../../helpers/push-service';
import { addReminder, fieldEmployee, sleep, until } from './support/follow-ups';
import { createStore, killLeftovers, type Store, startServerProcess } from './support/server-process';

// Issue 15, Server: `kill -9` between claiming a reminder and sending it. The claim holds for
// REMINDER_CLAIM_LEASE_SECONDS; after that the restarted server (or any node) claims it again
// and sends it, once. The test-only hook LEADNEST_TEST_FAULT=kill-after-reminder-claim SIGKILLs
// the process right after its claim is committed and before anything is sent.

let store: Store;
let push: FakePushService;
let smtp: SmtpSink;

beforeAll(async () => {
  store = await createStore();
  push = await startFakePushService();
  smtp = await startSmtpSink();
});

afterAll(async () => {
  killLeftovers();
  await push?.close();
  await smtp?.close();
  await store?.drop();
});

type Row = { is_sent: number; attempts: number; claimed_at: string | null; sent_channels: string };

describe('kill -9 between the claim and the send', () => {
  it('sends the reminder after the restart, exactly once', async () => {
    const env = { REMINDER_SCAN_SECONDS: '0.2', REMINDER_CLAIM_LEASE_SECONDS: '1', SMTP_URL: smtp.url };
    const doomed = await startServerProcess(store, {
      ...env,
      LEADNEST_TEST_FAULT: 'kill-after-reminder-claim',
    });
    const employee = await fieldEmployee(doomed.url, push, { devices: 1, leads: 1 });
    const lead = employee.leads[0]!;
    // A moment ahead, so the answer is back before the scheduler claims it and dies.
    const r = await addReminder(
      doomed.url,
      employee.token,
      lead.id,
      new Date(Date.now() + 3000),
      'Site visit',
    );

    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const row = async () =>
      (
        await store.query<Row>(
          `select is_sent, attempts, claimed_at, sent_channels from reminders where id = ${r.reminderId}`,
        )
      )[0]!;
    expect(await row()).toMatchObject({
      is_sent: 0,
      attempts: 1,
      claimed_at: expect.any(String),
      sent_channels: '',
    });
    expect(push.received).toHaveLength(0);
    expect(smtp.received).toHaveLength(0);

    await startServerProcess(store, env);
    await until('the reminder sent after the restart', async () => (await row()).is_sent === 1);
    // More scans: nothing goes out a second time.
    await sleep(1000);

    expect(push.received).toHaveLength(1);
    const payload = JSON.parse(employee.devices[0]!.decrypt(push.received[0]!.body)) as ReminderPush;
    expect(payload).toMatchObject({ reminderId: r.reminderId, leadName: lead.name, note: 'Site visit' });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual([employee.email]);
    expect(await row()).toMatchObject({ is_sent: 1, attempts: 2, sent_channels: 'push,mail' });
  }, 120_000);
});
