import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FollowUp } from '../../../../contract/follow-ups';
import { Role } from '../../../../contract/roles';
import { IDEMPOTENT_REPLAYED_HEADER } from '../../../../contract/sync';
import { type FollowUpItem, followUpsView } from '../../../../src/features/reminders/lib/follow-ups';
import { markDone, snoozeUntil } from '../../../../src/features/reminders/lib/reminder-actions';
import { enqueue } from '../../../../src/features/sync/outbox';
import { refreshLeads, refreshReminders } from '../../../../src/features/sync/refresh';
import { createSyncEngine, type SyncEngine } from '../../../../src/features/sync/sync-engine';
import { configureApi } from '../../../../src/lib/api-client';
import { closeUserDbs, type LeadNestDb, userDb } from '../../../../src/lib/db';
import { saveSession } from '../../../../src/lib/session';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  startTestServer,
  type TestServer,
} from '../../../helpers/test-server';
import { startFlakyGateway } from './flaky-gateway';

// Issue 15: Done and Snooze are outbox rows of kind 'reminder-update' (PUT
// /api/LeadStatus/reminders/{id}), shown at once, sent once under the row's Idempotency-Key.

let server: TestServer;
let gateway: Awaited<ReturnType<typeof startFlakyGateway>>;
let admin: Account;
let employee: Account;
let other: Account;
let db: LeadNestDb;
let engine: SyncEngine;

async function serverLead(owner: Account = employee): Promise<number> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/Admin/leads',
    headers: bearer(admin),
    payload: {
      name: `Lead ${crypto.randomBytes(3).toString('hex')}`,
      phoneNo: `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`,
      assignedTo: owner.email,
    },
  });
  if (res.statusCode !== 201) throw new Error(`add lead: ${res.body}`);
  return res.json().leadID;
}

async function serverReminder(leadId: number, at: Date, owner: Account = employee): Promise<number> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/LeadStatus/add-reminder',
    headers: bearer(owner),
    payload: { leadId, reminderTime: at.toISOString(), note: 'call back' },
  });
  if (res.statusCode !== 201) throw new Error(`add reminder: ${res.body}`);
  return res.json().reminderId;
}

async function serverReminders(owner: Account = employee): Promise<FollowUp[]> {
  const res = await server.app.inject({
    method: 'GET',
    url: '/api/LeadStatus/reminders?status=all',
    headers: bearer(owner),
  });
  return res.json();
}

async function view(): Promise<FollowUpItem[]> {
  return followUpsView((await db.getMeta('reminders')) ?? [], await db.outbox.toArray());
}

// The outbox sends its rows in batches (POST /api/sync, issue 18), each row under its own key.
const batches = () => gateway.writes().filter((w) => w.method === 'POST' && w.url === '/api/sync');

beforeAll(async () => {
  server = await startTestServer();
  gateway = await startFlakyGateway(server.url);
  admin = await createFirstAdmin(server.app);
  other = await createAccount(server.app, admin, Role.Employee);
  configureApi({ baseUrl: `${gateway.url}/api`, onUnauthorized: () => {} });
});
afterAll(async () => {
  await gateway.close();
  await server.close();
});
beforeEach(async () => {
  // A new employee each time: the device's list is all of the employee's reminders.
  employee = await createAccount(server.app, admin, Role.Employee);
  saveSession({ token: employee.token, email: employee.email, roleId: Role.Employee });
  gateway.reset();
  db = userDb(`${crypto.randomUUID()}@device.test`);
  engine = createSyncEngine(db);
});
afterEach(async () => {
  engine.stop();
  await db.delete();
  closeUserDbs();
});

describe("the outbox's reminder-update rows", () => {
  it('marks a reminder done at once offline, and sends it once when the network is back, even with answers lost', async () => {
    const leadId = await serverLead();
    const reminderId = await serverReminder(leadId, new Date(Date.now() - 3600_000));
    await refreshLeads(db);
    await refreshReminders(db);
    const [item] = await view();
    expect(item).toMatchObject({ reminderId, leadId, waiting: false });

    gateway.always('down');
    await markDone(db, item!);
    // Gone from the device's list before the server heard of it.
    expect(await view()).toEqual([]);
    expect(await engine.flush()).toMatchObject({ sent: 0, stopped: 'backoff' });
    expect((await serverReminders()).find((r) => r.reminderId === reminderId)?.isDone).toBe(false);

    // Back online, but the first two answers are lost on the way back.
    gateway.always('pass');
    gateway.next('lose-answer', 'lose-answer');
    await engine.flush(true);
    await engine.flush(true);
    expect(await engine.flush(true)).toMatchObject({ sent: 1, stopped: 'drained' });

    // The offline try, the two lost answers, the one that came back; applied once.
    expect(batches()).toHaveLength(4);
    const stored = (await serverReminders()).find((r) => r.reminderId === reminderId);
    expect(stored).toMatchObject({ isDone: true });
    expect(await db.outbox.count()).toBe(0);
    // The device keeps the server's answer: done, so still not listed.
    expect((await db.getMeta('reminders'))?.find((r) => r.reminderId === reminderId)).toMatchObject({
      isDone: true,
    });
    expect(await view()).toEqual([]);
  });

  it('the server replays a resent key instead of applying it twice', async () => {
    const leadId = await serverLead();
    const reminderId = await serverReminder(leadId, new Date(Date.now() + 3600_000));
    await refreshReminders(db);
    const [item] = await view();
    const until = new Date(Date.now() + 2 * 86_400_000);
    const row = await snoozeUntil(db, item!, until);
    await engine.flush();
    const again = await server.app.inject({
      method: 'PUT',
      url: `/api/LeadStatus/reminders/${reminderId}`,
      headers: { ...bearer(employee), 'idempotency-key': row.id },
      payload: { snoozeUntil: row.payload.snoozeUntil },
    });
    expect(again.statusCode).toBe(200);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()]).toBeDefined();
  });

  it('snoozes at once, and the list shows the new time before and after the server answers', async () => {
    const leadId = await serverLead();
    const reminderId = await serverReminder(leadId, new Date(Date.now() - 600_000));
    await refreshReminders(db);
    const [item] = await view();
    const until = new Date(Date.now() + 86_400_000);
    until.setSeconds(0, 0);

    gateway.always('down');
    await snoozeUntil(db, item!, until);
    expect(await view()).toMatchObject([{ reminderId, reminderTime: until.toISOString(), waiting: true }]);

    gateway.always('pass');
    await engine.flush(true);
    expect(await view()).toMatchObject([{ reminderId, waiting: false }]);
    expect(Date.parse((await view())[0]!.reminderTime)).toBe(until.getTime());
    const stored = (await serverReminders()).find((r) => r.reminderId === reminderId);
    expect(Date.parse(stored!.reminderTime)).toBe(until.getTime());
  });

  it('holds a done made on a reminder still waiting on the device, then sends it under the real id', async () => {
    const leadId = await serverLead();
    await refreshLeads(db);
    gateway.always('down');
    const reminderRow = await enqueue(db, {
      kind: 'reminder',
      leadId,
      leadName: 'x',
      payload: { leadId, reminderTime: new Date(Date.now() + 3600_000).toISOString(), note: 'set offline' },
    });
    const [waiting] = await view();
    expect(waiting).toMatchObject({ reminderId: reminderRow.id, waiting: true });
    await markDone(db, waiting!);
    expect(await view()).toEqual([]);
    await engine.flush();

    gateway.always('pass');
    expect(await engine.flush(true)).toMatchObject({ sent: 2, stopped: 'drained' });
    const [created] = (await serverReminders()).filter((r) => r.leadId === leadId);
    expect(created).toMatchObject({ note: 'set offline', isDone: true });
    expect(await db.outbox.count()).toBe(0);
  });

  it("keeps a refused update (another employee's reminder: 404) under Needs attention, changing nothing", async () => {
    const theirLead = await serverLead(other);
    const theirs = await serverReminder(theirLead, new Date(Date.now() + 3600_000), other);
    const leadId = await serverLead();
    await refreshLeads(db);
    const item: FollowUpItem = {
      key: `r-${theirs}`,
      reminderId: theirs,
      leadId,
      leadName: 'x',
      leadPhone: '',
      note: '',
      reminderTime: new Date().toISOString(),
      waiting: false,
    };
    const row = await markDone(db, item);
    await engine.flush();
    expect(await db.outbox.get(row.id)).toMatchObject({ state: 'attention' });
    expect((await serverReminders(other)).find((r) => r.reminderId === theirs)?.isDone).toBe(false);
  });
});
