import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followUpMessages, type ReminderPush } from '../../../contract/follow-ups';
import { type SmtpSink, startSmtpSink } from '../../helpers/mail';
import { type FakePushService, startFakePushService } from '../../helpers/push-service';
import {
  addReminder,
  type FieldEmployee,
  fieldEmployee,
  sleep,
  subjectOf,
  until,
} from './support/follow-ups';
import {
  createStore,
  killLeftovers,
  type ServerProcess,
  type Store,
  startServerProcess,
} from './support/server-process';

// Issue 15, Server: two API processes scan the same database for due reminders (two processes on
// one SQLite file, or two nodes on one PostgreSQL when TEST_DATABASE_URL is set). Each reminder
// is claimed atomically, so every one is pushed to each device and mailed exactly once.

const REMINDERS_PER_EMPLOYEE = 15;
const SCAN = { REMINDER_SCAN_SECONDS: '0.2' };

let store: Store;
let push: FakePushService;
let smtp: SmtpSink;
let nodes: ServerProcess[];
let employees: FieldEmployee[];

beforeAll(async () => {
  store = await createStore();
  push = await startFakePushService();
  smtp = await startSmtpSink();
  const env = { ...SCAN, SMTP_URL: smtp.url };
  // One after the other: the first creates the schema and the VAPID keys both then share.
  const first = await startServerProcess(store, env);
  nodes = [first, await startServerProcess(store, env)];
  employees = [
    await fieldEmployee(first.url, push, { devices: 2, leads: REMINDERS_PER_EMPLOYEE }),
    await fieldEmployee(nodes[1]!.url, push, { devices: 1, leads: REMINDERS_PER_EMPLOYEE }),
  ];
}, 120_000);

afterAll(async () => {
  killLeftovers();
  await push?.close();
  await smtp?.close();
  await store?.drop();
});

describe('two API processes on one database', () => {
  it('push every due reminder to each device and mail it exactly once', async () => {
    // All fall due together a few seconds from now, while both processes scan every 0.2 s.
    const at = new Date(Date.now() + 4000);
    const expected = new Map<number, { employee: FieldEmployee; leadName: string }>();
    for (const [e, employee] of employees.entries()) {
      for (const [i, lead] of employee.leads.entries()) {
        const node = nodes[(e + i) % 2]!;
        const r = await addReminder(node.url, employee.token, lead.id, at, `Call ${i}`);
        expected.set(r.reminderId, { employee, leadName: lead.name });
      }
    }
    const devices = employees.reduce((n, e) => n + e.devices.length, 0);
    const pushes = REMINDERS_PER_EMPLOYEE * devices;

    await until('every reminder sent', async () => {
      const [row] = await store.query<{ n: number }>('select count(*) as n from reminders where is_sent = 1');
      return (
        Number(row!.n) === expected.size &&
        push.received.length >= pushes &&
        smtp.received.length >= expected.size
      );
    });
    // A few more scans by both processes: nothing goes out a second time.
    await sleep(1000);

    expect(push.received).toHaveLength(pushes);
    const seen = new Set<string>();
    for (const employee of employees) {
      for (const device of employee.devices) {
        for (const message of push.received.filter((p) => p.path === device.path)) {
          const payload = JSON.parse(device.decrypt(message.body)) as ReminderPush;
          expect(expected.get(payload.reminderId)?.employee).toBe(employee);
          seen.add(`${device.path} ${payload.reminderId}`);
        }
      }
    }
    expect(seen.size).toBe(pushes);

    expect(smtp.received).toHaveLength(expected.size);
    const subjects = smtp.received.map((m) => subjectOf(m.raw)).sort();
    const wanted = [...expected.values()].map((x) => followUpMessages.mailSubject(x.leadName)).sort();
    expect(subjects).toEqual(wanted);
    const rows = await store.query<{ sent_channels: string }>('select sent_channels from reminders');
    expect(rows.map((r) => r.sent_channels)).toEqual(rows.map(() => 'push,mail'));
  }, 120_000);
});
