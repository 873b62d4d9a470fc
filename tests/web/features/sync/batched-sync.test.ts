import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { leadStatusMessages } from '../../../../contract/lead-status';
import { messages } from '../../../../contract/messages';
import { Role } from '../../../../contract/roles';
import { discardRow, enqueue, enqueueNewLead, type NewRow } from '../../../../src/features/sync/outbox';
import { refreshLeads } from '../../../../src/features/sync/refresh';
import { createSyncEngine, type SyncEngine } from '../../../../src/features/sync/sync-engine';
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

// Issue 18: the outbox in batches (POST /api/sync) and the delta refresh (GET /api/sync/changes),
// against the real server on a random port behind a scriptable gateway, with fake-indexeddb.

let server: TestServer;
let gateway: Awaited<ReturnType<typeof startFlakyGateway>>;
let admin: Account;
let employee: Account;
let other: Account;
let ids: { connected: number; interested: number; siteVisit: number; booking: number };
let db: LeadNestDb;
let engine: SyncEngine;

async function serverLead(owner: Account = employee): Promise<number> {
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
      assigned_to_id: owner.id,
      assigned_date: new Date().toISOString(),
      created_at: new Date().toISOString(),
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
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

const note = (leadId: number, text: string, clientStatusId = ids.interested): NewRow => ({
  kind: 'note',
  leadId,
  leadName: 'x',
  statusName: clientStatusId === ids.interested ? 'Interested' : 'Booking',
  payload: { leadId, notes: text, callStatusId: ids.connected, clientStatusId },
});
const move = (leadId: number, clientStatusId: number, statusName: string): NewRow => ({
  kind: 'status',
  leadId,
  leadName: 'x',
  statusName,
  payload: { leadId, clientStatusId },
});
const batches = () => gateway.writes().filter((w) => w.url === '/api/sync');

beforeAll(async () => {
  server = await startTestServer();
  gateway = await startFlakyGateway(server.url);
  admin = await createFirstAdmin(server.app);
  employee = await createAccount(server.app, admin, Role.Employee);
  other = await createAccount(server.app, admin, Role.Employee);
  const { options } = server.app.deps;
  const find = async (table: Parameters<typeof options.list>[0], name: string) =>
    (await options.list(table)).find((o) => o.name === name)!.id;
  ids = {
    connected: await find('call_statuses', 'Connected'),
    interested: await find('client_statuses', 'Interested'),
    siteVisit: await find('client_statuses', 'Site Visit'),
    booking: await find('client_statuses', 'Booking'),
  };
  configureApi({ baseUrl: `${gateway.url}/api`, onUnauthorized: () => {} });
});
afterAll(async () => {
  await gateway.close();
  await server.close();
});

beforeEach(() => {
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

describe('the outbox in batches', () => {
  it('sends a morning of offline work in one request, each lead’s rows in order, a new lead with its rows', async () => {
    const [a, b] = [await serverLead(), await serverLead()];
    expect(await refreshLeads(db)).toBe('ok');
    gateway.always('down');
    await enqueue(db, note(a, 'a1'));
    await enqueue(db, note(b, 'b1'));
    await enqueue(db, move(a, ids.siteVisit, 'Site Visit'));
    await enqueue(db, note(a, 'a2', ids.booking));
    const added = await enqueueNewLead(db, {
      name: 'Walk-in Buyer',
      phoneNo: `8${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`,
      email: '',
      assignedTo: employee.email,
      assignedDate: new Date().toISOString(),
    });
    await enqueue(db, note(added.leadId, 'met at the site office'));
    await enqueue(db, {
      kind: 'reminder',
      leadId: added.leadId,
      leadName: 'Walk-in Buyer',
      payload: { leadId: added.leadId, reminderTime: '2030-05-01T10:00:00.000Z', note: 'call back' },
    });
    expect(await engine.flush()).toMatchObject({ sent: 0, stopped: 'backoff' });

    gateway.reset();
    expect(await engine.flush(true)).toMatchObject({ sent: 7, stopped: 'drained' });
    expect(batches()).toHaveLength(1);
    expect(gateway.writes()).toHaveLength(1);
    expect(await serverNotes(a)).toEqual(['a1', 'a2']);
    expect(await serverNotes(b)).toEqual(['b1']);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.leads.get(a)).toMatchObject({ status: 'Booking', pendingCount: 0 });
    const created = (await db.leads.toArray()).find((l) => l.name === 'Walk-in Buyer');
    expect(created?.leadID).toBeGreaterThan(0);
    expect(await db.leads.get(added.leadId)).toBeUndefined();
    expect(await serverNotes(created!.leadID)).toEqual(['met at the site office']);
    expect((await db.getMeta('reminders'))?.map((r) => r.leadId)).toEqual([created!.leadID]);
  });

  it('applies a batch whose answer was lost once: the resend gets the first answers', async () => {
    const lead = await serverLead();
    await refreshLeads(db);
    gateway.reset();
    gateway.next('lose-answer');
    await enqueue(db, note(lead, 'one'));
    await enqueue(db, note(lead, 'two'));
    expect(await engine.flush()).toMatchObject({ stopped: 'backoff' });
    expect((await db.outbox.toArray()).map((r) => r.attempts)).toEqual([1, 1]);
    expect(await engine.flush(true)).toMatchObject({ sent: 2, stopped: 'drained' });
    expect(batches()).toHaveLength(2);
    expect(await serverNotes(lead)).toEqual(['one', 'two']);
  });

  it('holds a lead’s later rows behind a refused one while other leads’ rows go on', async () => {
    const [stuck, free] = [await serverLead(), await serverLead()];
    await refreshLeads(db);
    gateway.reset();
    const bad = note(stuck, 'typed on a bumpy road');
    bad.payload.callStatusId = 999_999;
    const refused = await enqueue(db, bad);
    const later = await enqueue(db, note(stuck, 'after it'));
    await enqueue(db, note(free, 'elsewhere'));
    expect(await engine.flush()).toMatchObject({ sent: 1, stopped: 'drained' });
    expect(await db.outbox.get(refused.id)).toMatchObject({
      state: 'attention',
      error: leadStatusMessages.unknownCallStatus,
    });
    expect(await db.outbox.get(later.id)).toMatchObject({ state: 'pending', attempts: 0 });
    expect(await serverNotes(stuck)).toEqual([]);
    expect(await serverNotes(free)).toEqual(['elsewhere']);

    // Still held: nothing goes until the refused row is fixed or dropped.
    expect(await engine.flush(true)).toMatchObject({ sent: 0, stopped: 'drained' });
    expect(batches()).toHaveLength(1);
    await discardRow(db, refused.id);
    expect(await engine.flush()).toMatchObject({ sent: 1 });
    expect(await serverNotes(stuck)).toEqual(['after it']);
  });

  it('drops a move the server wants a note for and sends the note behind it next', async () => {
    const lead = await serverLead();
    await refreshLeads(db);
    const events: string[] = [];
    engine.subscribe((e) => events.push(e.type));
    await enqueue(db, move(lead, ids.booking, 'Booking'));
    await enqueue(db, note(lead, 'now with a note'));
    expect(await engine.flush()).toMatchObject({ sent: 1, stopped: 'drained' });
    expect(events).toContain('needs-note');
    expect(await serverNotes(lead)).toEqual(['now with a note']);
    expect(await db.leads.get(lead)).toMatchObject({ status: 'Interested', pendingCount: 0 });
  });

  it('sends one request per row to a server without the batch call', async () => {
    const lead = await serverLead();
    await refreshLeads(db);
    gateway.reset();
    const noBatchCall = Object.assign(new Error('Not Found'), { status: 404, problem: { status: 404 } });
    engine = createSyncEngine(db, { sendBatch: () => Promise.reject(noBatchCall) });
    await enqueue(db, note(lead, 'one'));
    await enqueue(db, note(lead, 'two'));
    expect(await engine.flush()).toMatchObject({ sent: 2, stopped: 'drained' });
    expect(gateway.writes().map((w) => w.url)).toEqual(['/api/LeadStatus', '/api/LeadStatus']);
    expect(await serverNotes(lead)).toEqual(['one', 'two']);
  });
});

describe('the delta refresh', () => {
  it('loads everything once, then only what changed since the stored cursor', async () => {
    const [a, b] = [await serverLead(), await serverLead()];
    expect(await refreshLeads(db)).toBe('ok');
    const cursor = await db.getMeta('syncCursor');
    expect(cursor).toMatch(/^\d+\.\d+$/);
    expect(await db.getOptions('clientStatuses')).toEqual(
      expect.arrayContaining([{ clientStatusId: ids.interested, clientStat: 'Interested' }]),
    );

    await server.app.deps.db.updateTable('leads').set({ name: 'Renamed' }).where('id', '=', a).execute();
    gateway.reset();
    expect(await refreshLeads(db)).toBe('ok');
    expect(gateway.seen.map((s) => s.url)).toEqual([`/api/sync/changes?since=${cursor}`]);
    expect((await db.leads.get(a))?.name).toBe('Renamed');
    expect(await db.leads.get(b)).toBeDefined();
    expect(await db.getMeta('syncCursor')).not.toBe(cursor);
  });

  it('takes a reassigned lead off the device and keeps its waiting row, text and all, under Needs attention', async () => {
    const [moved, kept] = [await serverLead(), await serverLead()];
    await refreshLeads(db);
    gateway.always('down');
    const row = await enqueue(db, note(moved, 'typed before the reassignment'));
    await engine.flush();

    await server.app.deps.db
      .updateTable('leads')
      .set({ assigned_to_id: other.id })
      .where('id', '=', moved)
      .execute();
    await server.app.deps.db
      .updateTable('leads')
      .set({ deleted_at: new Date().toISOString() })
      .where('id', '=', kept)
      .execute();
    gateway.always('pass');
    expect(await refreshLeads(db)).toBe('ok');
    expect(await db.leads.get(moved)).toBeUndefined();
    expect(await db.leads.get(kept)).toBeUndefined();
    expect(await db.outbox.get(row.id)).toMatchObject({
      state: 'attention',
      error: messages.board.leadReassigned,
      payload: { notes: 'typed before the reassignment' },
    });
    // Not sent: the lead is no longer this employee's.
    gateway.reset();
    expect(await engine.flush(true)).toMatchObject({ sent: 0 });
    expect(batches()).toHaveLength(0);
  });
});
