import { adminMessages } from '../../../../contract/admin';
import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import { liveQuery } from 'dexie';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { leadStatusMessages } from '../../../../contract/lead-status';
import { messages } from '../../../../contract/messages';
import { Role } from '../../../../contract/roles';
import { backoffDelay } from '../../../../src/features/sync/classify';
import {
  discardRow,
  editRow,
  enqueue,
  enqueueNewLead,
  rowsForLead,
} from '../../../../src/features/sync/outbox';
import { refreshLeads, refreshOptions, refreshReminders } from '../../../../src/features/sync/refresh';
import { createSyncEngine, type SyncEngine, type SyncEvent } from '../../../../src/features/sync/sync-engine';
import { configureApi } from '../../../../src/lib/api-client';
import { closeUserDbs, type LeadNestDb, userDb } from '../../../../src/lib/db';
import { saveSession } from '../../../../src/lib/session';
import {
  type Account,
  createAccount,
  createFirstAdmin,
  startTestServer,
  type TestServer,
} from '../../../helpers/test-server';
import { startFlakyGateway } from './flaky-gateway';

let server: TestServer;
let gateway: Awaited<ReturnType<typeof startFlakyGateway>>;
let admin: Account;
let employee: Account;
let ids: {
  connected: number;
  interested: number;
  siteVisit: number;
  booking: number;
  andheri: number;
  twoBhk: number;
};
let db: LeadNestDb;
let engine: SyncEngine;
let events: SyncEvent[];

/** A lead assigned to the employee, straight in the server's table. */
async function serverLead(options: { withStatus?: number; owner?: Account } = {}): Promise<number> {
  const row = await server.app.deps.db
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
      assigned_to_id: (options.owner ?? employee).id,
      assigned_date: new Date().toISOString(),
      created_at: new Date().toISOString(),
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (options.withStatus) {
    await server.app.inject({
      method: 'POST',
      url: '/api/LeadStatus',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: {
        leadId: row.id,
        notes: 'first contact',
        callStatusId: ids.connected,
        clientStatusId: options.withStatus,
      },
    });
  }
  return row.id;
}

async function serverNotes(leadId: number): Promise<string[]> {
  const rows = await server.app.deps.db
    .selectFrom('lead_notes')
    .select('notes')
    .where('lead_id', '=', leadId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.notes);
}

async function serverStatus(leadId: number): Promise<number | undefined> {
  const row = await server.app.deps.db
    .selectFrom('lead_statuses')
    .select('client_status_id')
    .where('lead_id', '=', leadId)
    .executeTakeFirst();
  return row?.client_status_id;
}

const note = (leadId: number, text: string, clientStatusId = ids.interested) => ({
  kind: 'note' as const,
  leadId,
  leadName: 'x',
  statusName: clientStatusId === ids.interested ? 'Interested' : 'Booking',
  payload: {
    leadId,
    notes: text,
    callStatusId: ids.connected,
    clientStatusId,
    locationId: ids.andheri,
    configurationId: ids.twoBhk,
  },
});
const move = (leadId: number, clientStatusId: number, statusName: string, notes?: string) => ({
  kind: 'status' as const,
  leadId,
  leadName: 'x',
  statusName,
  payload: { leadId, clientStatusId, ...(notes ? { notes } : {}) },
});

function signIn(account: Account) {
  saveSession({ token: account.token, email: account.email, roleId: account.roleId });
}

beforeAll(async () => {
  server = await startTestServer();
  gateway = await startFlakyGateway(server.url);
  admin = await createFirstAdmin(server.app);
  employee = await createAccount(server.app, admin, Role.Employee);
  const { options } = server.app.deps;
  const find = async (table: Parameters<typeof options.list>[0], name: string) =>
    (await options.list(table)).find((o) => o.name === name)!.id;
  ids = {
    connected: await find('call_statuses', 'Connected'),
    interested: await find('client_statuses', 'Interested'),
    siteVisit: await find('client_statuses', 'Site Visit'),
    booking: await find('client_statuses', 'Booking'),
    andheri: await find('locations', 'Andheri'),
    twoBhk: await find('configurations', '2 BHK'),
  };
  configureApi({ baseUrl: `${gateway.url}/api`, onUnauthorized: () => {} });
});
afterAll(async () => {
  await gateway.close();
  await server.close();
});

beforeEach(async () => {
  signIn(employee);
  gateway.reset();
  // A fresh device for each test: a new IndexedDB database under a new name.
  db = userDb(`${crypto.randomUUID()}@device.test`);
  engine = createSyncEngine(db);
  events = [];
  engine.subscribe((e) => events.push(e));
});
afterEach(async () => {
  engine.stop();
  await db.delete();
  closeUserDbs();
});

describe('the outbox while offline', () => {
  it('queues changes, shows them at once, and sends them in order when the network is back', async () => {
    const leadId = await serverLead();
    expect(await refreshLeads(db)).toBe('ok');
    expect((await db.leads.get(leadId))?.status).toBeNull();

    gateway.always('down');
    await enqueue(db, note(leadId, 'first', ids.interested));
    await enqueue(db, note(leadId, 'second', ids.booking));
    await enqueue(db, {
      kind: 'reminder',
      leadId,
      leadName: 'x',
      payload: { leadId, reminderTime: '2030-05-01T10:00:00.000Z', note: 'call back' },
    });
    const shown = await db.leads.get(leadId);
    expect(shown).toMatchObject({ status: 'Booking', pendingCount: 3 });

    const offline = await engine.flush();
    expect(offline).toMatchObject({ sent: 0, stopped: 'backoff' });
    expect(await db.outbox.count()).toBe(3);
    expect(await serverNotes(leadId)).toEqual([]);

    gateway.always('pass');
    const online = await engine.flush(true);
    expect(online).toMatchObject({ sent: 3, stopped: 'drained' });
    expect(await serverNotes(leadId)).toEqual(['first', 'second']);
    expect(await serverStatus(leadId)).toBe(ids.booking);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.leads.get(leadId)).toMatchObject({
      status: 'Booking',
      pendingCount: 0,
      leadStatusId: expect.any(Number),
    });
    expect((await db.getMeta('reminders'))?.map((r) => r.note)).toEqual(['call back']);
  });

  it('backs off after a 503 or a 429, waits for the retry time, then sends', async () => {
    const leadId = await serverLead();
    await refreshLeads(db);
    gateway.reset();
    gateway.next(503);
    await enqueue(db, note(leadId, 'after 503'));
    expect(await engine.flush()).toMatchObject({ stopped: 'backoff' });
    const [row] = await db.outbox.toArray();
    expect(row).toMatchObject({ attempts: 1, state: 'pending' });
    expect(row!.nextAttemptAt).toBeGreaterThan(Date.now());

    // Before the retry time nothing is sent.
    expect(await engine.flush()).toMatchObject({ sent: 0, stopped: 'backoff' });
    expect(gateway.writes()).toHaveLength(1);

    gateway.next(429);
    expect(await engine.flush(true)).toMatchObject({ stopped: 'backoff' });
    expect((await db.outbox.toArray())[0]).toMatchObject({ attempts: 2 });
    expect(await engine.flush(true)).toMatchObject({ sent: 1, stopped: 'drained' });
    expect(await serverNotes(leadId)).toEqual(['after 503']);
  });

  it('grows the wait between retries, with jitter, up to a cap', () => {
    const low = () => 0;
    const high = () => 0.999_999;
    expect(backoffDelay(1, low)).toBe(1_000);
    expect(backoffDelay(1, high)).toBeLessThanOrEqual(2_000);
    expect(backoffDelay(2, low)).toBe(2_000);
    expect(backoffDelay(5, low)).toBe(16_000);
    expect(backoffDelay(30, high)).toBeLessThanOrEqual(5 * 60_000);
    expect(backoffDelay(30, low)).toBe(150_000);
  });

  it('sends a row whose answer was lost three times exactly once: the server replays its first answer', async () => {
    const leadId = await serverLead();
    await refreshLeads(db);
    gateway.reset();
    gateway.next('lose-answer', 'lose-answer');
    await enqueue(db, note(leadId, 'said once'));
    expect(await engine.flush()).toMatchObject({ stopped: 'backoff' });
    expect(await engine.flush(true)).toMatchObject({ stopped: 'backoff' });
    expect(await engine.flush(true)).toMatchObject({ sent: 1, stopped: 'drained' });

    const writes = gateway.writes();
    expect(writes).toHaveLength(3);
    expect(new Set(writes.map((w) => w.idempotencyKey)).size).toBe(1);
    expect(await serverNotes(leadId)).toEqual(['said once']);
    expect(await db.outbox.count()).toBe(0);
  });

  it('sends each row once when flushes are asked for at the same time', async () => {
    const leadId = await serverLead();
    await refreshLeads(db);
    gateway.reset();
    for (const text of ['a', 'b', 'c']) await enqueue(db, note(leadId, text));
    await Promise.all([engine.flush(), engine.flush(), engine.flush(true)]);
    // One batch carries the three rows (issue 18).
    expect(gateway.writes()).toHaveLength(1);
    expect(await serverNotes(leadId)).toEqual(['a', 'b', 'c']);
  });
});

describe('answers that stop a row', () => {
  it('pauses on 401 keeping every row, and resumes after the next sign-in', async () => {
    const leadId = await serverLead();
    await refreshLeads(db);
    saveSession({ token: 'expired.token.value', email: employee.email, roleId: Role.Employee });
    await enqueue(db, note(leadId, 'kept through 401'));
    expect(await engine.flush()).toMatchObject({ stopped: 'auth' });
    expect(events.some((e) => e.type === 'auth')).toBe(true);
    expect(await db.outbox.count()).toBe(1);

    signIn(employee);
    gateway.reset();
    // Still paused until the app says the user signed in again.
    expect(await engine.flush(true)).toMatchObject({ stopped: 'auth' });
    expect(gateway.writes()).toHaveLength(0);
    expect(await engine.resume()).toMatchObject({ sent: 1, stopped: 'drained' });
    expect(await serverNotes(leadId)).toEqual(['kept through 401']);
  });

  it('reverts a first move the server wants a note for, rebuilding the card from server state and the rows left', async () => {
    const leadId = await serverLead();
    await refreshLeads(db);
    gateway.reset();
    await enqueue(db, move(leadId, ids.booking, 'Booking'));
    await enqueue(db, note(leadId, 'now with a note', ids.interested));
    expect((await db.leads.get(leadId))?.status).toBe('Interested');
    // The move is answered; the note behind it meets a down network and stays.
    gateway.next('pass', 'down');
    await engine.flush();

    const needsNote = events.find((e) => e.type === 'needs-note');
    expect(needsNote).toMatchObject({ message: messages.board.requireNote });
    expect(needsNote?.type === 'needs-note' && needsNote.row.leadId).toBe(leadId);
    const rows = await rowsForLead(db, leadId);
    expect(rows.map((r) => r.kind)).toEqual(['note']);
    expect(await db.leads.get(leadId)).toMatchObject({ status: 'Interested', pendingCount: 1 });
    expect(await serverStatus(leadId)).toBeUndefined();

    await engine.flush(true);
    expect(await serverStatus(leadId)).toBe(ids.interested);
  });

  it('reverts a first move back to New Leads when nothing else is waiting', async () => {
    const leadId = await serverLead();
    await refreshLeads(db);
    await enqueue(db, move(leadId, ids.siteVisit, 'Site Visit'));
    expect((await db.leads.get(leadId))?.status).toBe('Site Visit');
    await engine.flush();
    expect(await db.leads.get(leadId)).toMatchObject({ status: null, pendingCount: 0 });
    expect(await db.outbox.count()).toBe(0);
  });

  it('moves a lead that already has a status without asking for a note', async () => {
    const leadId = await serverLead({ withStatus: ids.interested });
    await refreshLeads(db);
    expect((await db.leads.get(leadId))?.status).toBe('Interested');
    await enqueue(db, move(leadId, ids.booking, 'Booking'));
    expect(await engine.flush()).toMatchObject({ sent: 1 });
    expect(events.find((e) => e.type === 'synced')).toBeDefined();
    expect(await serverStatus(leadId)).toBe(ids.booking);
    expect(await db.leads.get(leadId)).toMatchObject({ status: 'Booking', pendingCount: 0 });
    expect((await db.leads.get(leadId))?.base?.status).toBe('Booking');
  });

  it('keeps any other refusal under "Needs attention" with the reason, editable and discardable', async () => {
    const leadId = await serverLead({ withStatus: ids.interested });
    await refreshLeads(db);
    const bad = note(leadId, 'typed on a bumpy road', ids.booking);
    bad.payload.callStatusId = 999_999;
    const row = await enqueue(db, bad);
    await enqueue(db, note(leadId, 'later note', ids.interested));
    await engine.flush();

    const stuck = await db.outbox.get(row.id);
    expect(stuck).toMatchObject({ state: 'attention', error: leadStatusMessages.unknownCallStatus });
    expect(stuck?.payload.notes).toBe('typed on a bumpy road');
    expect(events.find((e) => e.type === 'attention')).toMatchObject({
      message: leadStatusMessages.unknownCallStatus,
    });
    // The row behind it on the same lead waits for it (issue 18: a lead's rows apply in order).
    expect(await serverNotes(leadId)).toEqual(['first contact']);
    expect(await db.leads.get(leadId)).toMatchObject({ status: 'Interested', attention: 1, pendingCount: 1 });

    await editRow(db, row.id, { ...stuck!.payload, callStatusId: ids.connected });
    expect(await engine.flush()).toMatchObject({ sent: 2 });
    expect(await serverNotes(leadId)).toEqual(['first contact', 'typed on a bumpy road', 'later note']);
    expect(await db.outbox.count()).toBe(0);

    const other = await serverLead({ owner: admin });
    const notMine = await enqueue(db, {
      kind: 'reminder',
      leadId: other,
      leadName: 'x',
      payload: { leadId: other, reminderTime: '2030-01-01T00:00:00Z' },
    });
    await engine.flush();
    expect(await db.outbox.get(notMine.id)).toMatchObject({
      state: 'attention',
      error: leadStatusMessages.leadNotFound,
    });
    await discardRow(db, notMine.id);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('a lead added offline', () => {
  it('gets a temporary id, then the real one, and the rows made meanwhile follow it', async () => {
    await refreshLeads(db);
    gateway.always('down');
    const phone = `8${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;
    const added = await enqueueNewLead(db, {
      name: 'Walk-in Buyer',
      phoneNo: phone,
      email: '',
      assignedTo: employee.email,
      assignedDate: new Date().toISOString(),
    });
    const tempId = added.leadId;
    expect(tempId).toBeLessThan(0);
    await enqueue(db, note(tempId, 'met at the site office'));
    expect(await db.leads.get(tempId)).toMatchObject({
      name: 'Walk-in Buyer',
      status: 'Interested',
      pendingCount: 2,
    });
    await engine.flush();

    gateway.always('pass');
    expect(await engine.flush(true)).toMatchObject({ sent: 2, stopped: 'drained' });
    const created = await server.app.deps.db
      .selectFrom('leads')
      .select(['id', 'assigned_to_id'])
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    expect(created.assigned_to_id).toBe(employee.id);
    expect(await serverNotes(created.id)).toEqual(['met at the site office']);
    expect(await db.leads.get(tempId)).toBeUndefined();
    expect(await db.leads.get(created.id)).toMatchObject({
      name: 'Walk-in Buyer',
      status: 'Interested',
      pendingCount: 0,
    });
  });

  it('keeps a refused new lead under "Needs attention" with the server message, and discarding it drops its rows', async () => {
    const existing = await serverLead();
    const { phone } = await server.app.deps.db
      .selectFrom('leads')
      .select('phone')
      .where('id', '=', existing)
      .executeTakeFirstOrThrow();
    const added = await enqueueNewLead(db, {
      name: 'Same Phone',
      phoneNo: phone,
      email: '',
      assignedTo: employee.email,
      assignedDate: new Date().toISOString(),
    });
    await enqueue(db, note(added.leadId, 'note on a lead that will not exist'));
    await engine.flush();
    const row = await db.outbox.get(added.id);
    expect(row?.state).toBe('attention');
    // The server's sentence, which to an employee names no holder (issue 16).
    expect(row?.error).toBe(adminMessages.duplicatePhoneTaken);
    expect(await db.leads.get(added.leadId)).toBeUndefined();
    await discardRow(db, added.id);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('refreshing from the server', () => {
  it('wakes no live query when nothing changed, and rewrites only the lead that did', async () => {
    const [first, second] = [await serverLead(), await serverLead()];
    expect(await refreshLeads(db)).toBe('ok');
    await refreshOptions(db);
    await refreshReminders(db);

    // What the board watches: every cached lead, the option lists and the reminders.
    const wakes = { leads: 0, options: 0, reminders: 0 };
    const watch = [
      liveQuery(() => db.leads.toArray()).subscribe(() => wakes.leads++),
      liveQuery(() => db.options.toArray()).subscribe(() => wakes.options++),
      liveQuery(() => db.getMeta('reminders')).subscribe(() => wakes.reminders++),
    ];
    try {
      await waitFor(() => wakes.leads === 1 && wakes.options === 1 && wakes.reminders === 1);
      const before = await db.leads.get(second);

      expect(await refreshLeads(db)).toBe('ok');
      await refreshOptions(db);
      await refreshReminders(db);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(wakes).toEqual({ leads: 1, options: 1, reminders: 1 });

      await server.app.deps.db
        .updateTable('leads')
        .set({ name: 'Renamed' })
        .where('id', '=', first)
        .execute();
      expect(await refreshLeads(db)).toBe('ok');
      await waitFor(() => wakes.leads === 2);
      expect((await db.leads.get(first))?.name).toBe('Renamed');
      expect(await db.leads.get(second)).toEqual(before);
    } finally {
      for (const subscription of watch) subscription.unsubscribe();
    }
  });
});

async function waitFor(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
