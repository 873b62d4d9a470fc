import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { Role } from '../../../contract/roles';
import { SYNC_HELD_STATUS, type SyncOp, syncBatchMessages } from '../../../contract/sync-batch';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { insertLead, key, noteCount, optionIds, postBatch, secondNode } from './support';

// POST /api/sync (issue 18): a batch of outbox rows, each answered as its single call would be,
// each applied once by its key.

let t: TestApp;
let admin: Account;
let employee: Account;
let other: Account;
let ids: Awaited<ReturnType<typeof optionIds>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
  other = await createAccount(t.app, admin, Role.Employee);
  ids = await optionIds(t.app);
});
afterAll(() => t.close());

const noteOp = (leadId: number, text = 'Called back', k = key()): SyncOp => ({
  key: k,
  kind: 'note',
  body: { leadId, notes: text, callStatusId: ids.connected, clientStatusId: ids.interested },
});
const moveOp = (leadId: number, clientStatusId = ids.siteVisit, k = key()): SyncOp => ({
  key: k,
  kind: 'status',
  leadId,
  body: { leadId, clientStatusId, updatedBy: employee.email },
});
const reminderOp = (leadId: number): SyncOp => ({
  key: key(),
  kind: 'reminder',
  body: { leadId, reminderTime: new Date(Date.now() + 86_400_000).toISOString(), note: 'Call again' },
});
const phone = () => `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;
const newLeadOp = (tempId: number, body: Record<string, unknown> = {}): SyncOp => ({
  key: key(),
  kind: 'lead',
  leadId: tempId,
  body: { name: 'Walk-in buyer', phoneNo: phone(), email: '', assignedTo: employee.email, ...body },
});

async function statusOf(leadId: number): Promise<string | null> {
  const res = await t.app.inject({ method: 'GET', url: '/api/Admin/leads', headers: bearer(admin) });
  return (
    res.json<{ leadID: number; status: string | null }[]>().find((l) => l.leadID === leadId)?.status ?? null
  );
}

describe('POST /api/sync', () => {
  it('answers one result per op, in order, each what its single call answers', async () => {
    const lead = await insertLead(t.app, employee);
    const twin = await insertLead(t.app, employee);
    const refused = await insertLead(t.app, employee);
    const ops = [noteOp(lead), moveOp(lead), reminderOp(lead), moveOp(refused)];
    const res = await postBatch(t.app, employee, ops);
    expect(res.statusCode).toBe(200);
    const { results } = res.json();
    expect(results.map((r) => r.key)).toEqual(ops.map((op) => op.key));
    expect(results.map((r) => r.status)).toEqual([201, 200, 201, 409]);
    expect(results[0]!.body).toMatchObject({
      leadId: lead,
      status: 'Interested',
      message: messages.board.noteSaved,
    });
    expect(results[1]!.body).toMatchObject({ status: 'Site Visit', message: messages.board.statusUpdated });
    expect(results[2]!.body).toMatchObject({ leadId: lead, note: 'Call again' });

    // The same refused move sent singly on a twin lead answers the same problem JSON.
    const single = await t.app.inject({
      method: 'PUT',
      url: `/api/LeadStatus/leads/${twin}/status`,
      payload: moveOp(twin).body,
      headers: bearer(employee),
    });
    expect(results[3]).toMatchObject({ status: single.statusCode, body: single.json() });
    expect(results[3]!.body).toMatchObject({ requireNotePopup: true, message: messages.board.requireNote });
    expect(await statusOf(lead)).toBe('Site Visit');
  });

  it('applies one lead’s ops in order and holds those behind one that was not applied', async () => {
    const held = await insertLead(t.app, employee);
    const free = await insertLead(t.app, employee);
    const blocked = moveOp(held);
    const ops = [blocked, noteOp(held, 'after the refused move'), noteOp(free), moveOp(held)];
    const { results } = (await postBatch(t.app, employee, ops)).json();
    expect(results.map((r) => r.status)).toEqual([409, SYNC_HELD_STATUS, 201, SYNC_HELD_STATUS]);
    expect(results[1]!.body).toMatchObject({
      status: SYNC_HELD_STATUS,
      waitsFor: blocked.key,
      message: syncBatchMessages.held(blocked.key),
    });
    expect(await noteCount(t.app, held)).toBe(0);
    expect(await noteCount(t.app, free)).toBe(1);
    expect(await statusOf(held)).toBeNull();

    // A held op was untouched: sent again once its lead is unblocked, it runs.
    const again = (await postBatch(t.app, employee, [ops[1]!, ops[3]!])).json().results;
    expect(again.map((r) => r.status)).toEqual([201, 200]);
    expect(await statusOf(held)).toBe('Site Visit');
  });

  it('creates a lead added offline and gives its temporary id’s later ops the new id', async () => {
    const create = newLeadOp(-1);
    const ops = [create, noteOp(-1, 'met at the site office'), moveOp(-1, ids.booking), reminderOp(-1)];
    const { results } = (await postBatch(t.app, employee, ops)).json();
    expect(results.map((r) => r.status)).toEqual([201, 201, 200, 201]);
    const leadID = (results[0]!.body as { leadID: number }).leadID;
    expect(leadID).toBeGreaterThan(0);
    expect(results[1]!.body).toMatchObject({ leadId: leadID });
    expect(results[3]!.body).toMatchObject({ leadId: leadID });
    expect(await statusOf(leadID)).toBe('Booking');
    expect(await noteCount(t.app, leadID)).toBe(1);
  });

  it('holds the ops of an offline lead whose creation was refused, or that the batch does not create', async () => {
    const refused = newLeadOp(-7, { name: '' });
    const ops = [refused, noteOp(-7), noteOp(-8)];
    const { results } = (await postBatch(t.app, employee, ops)).json();
    expect(results.map((r) => r.status)).toEqual([400, SYNC_HELD_STATUS, SYNC_HELD_STATUS]);
    expect(results[1]!.body).toMatchObject({ waitsFor: refused.key });
    expect(results[2]!.body).toMatchObject({ message: syncBatchMessages.waitsForLead });
  });

  it('applies each key once: a replayed batch, a key sent singly first, a batch cut short', async () => {
    const lead = await insertLead(t.app, employee);
    const sentAlone = noteOp(lead, 'sent alone first');
    const alone = await t.app.inject({
      method: 'POST',
      url: '/api/LeadStatus',
      payload: sentAlone.body,
      headers: { ...bearer(employee), 'idempotency-key': sentAlone.key },
    });
    expect(alone.statusCode).toBe(201);
    const ops = [sentAlone, noteOp(lead, 'second'), moveOp(lead), noteOp(lead, 'third')];
    // The answer to the first half was lost: the server applied it, the phone sends everything again.
    const cut = (await postBatch(t.app, employee, ops.slice(0, 2))).json().results;
    const whole = (await postBatch(t.app, employee, ops)).json().results;
    const replay = (await postBatch(t.app, employee, ops)).json().results;
    expect(whole.slice(0, 2)).toEqual(cut);
    expect(whole[0]).toEqual({ key: sentAlone.key, status: 201, body: alone.json() });
    expect(replay).toEqual(whole);
    expect(await noteCount(t.app, lead)).toBe(3);
  });

  it('applies each key once when the same batch reaches two nodes at once', async () => {
    const node2 = await secondNode(t);
    try {
      const leads = await Promise.all([1, 2, 3].map(() => insertLead(t.app, employee)));
      const ops = leads.flatMap((lead) => [noteOp(lead, 'one'), moveOp(lead), noteOp(lead, 'two')]);
      const [a, b] = await Promise.all([
        postBatch(t.app, employee, ops),
        postBatch(node2.app, employee, ops),
      ]);
      expect(a.json().results.map((r) => r.status)).toEqual(
        ops.map((op) => (op.kind === 'note' ? 201 : 200)),
      );
      expect(b.json().results).toEqual(a.json().results);
      for (const lead of leads) expect(await noteCount(t.app, lead)).toBe(2);
    } finally {
      await node2.close();
    }
  });

  it('marks a reminder done or snoozes it (PUT /api/LeadStatus/reminders/{id}) as its single call would', async () => {
    const lead = await insertLead(t.app, employee);
    const created = (await postBatch(t.app, employee, [reminderOp(lead), reminderOp(lead)])).json().results;
    const [first, second] = created.map((r) => (r.body as { reminderId: number }).reminderId);
    const done: SyncOp = {
      key: key(),
      kind: 'reminder-update',
      leadId: lead,
      body: { reminderId: first, done: true },
    };
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const snooze: SyncOp = {
      key: key(),
      kind: 'reminder-update',
      leadId: lead,
      body: { reminderId: second, snoozeUntil: later },
    };
    const missing: SyncOp = { key: key(), kind: 'reminder-update', body: { done: true } };
    const { results } = (await postBatch(t.app, employee, [done, snooze, missing])).json();
    expect(results.map((r) => r.status)).toEqual([200, 200, 400]);
    expect(results[0]!.body).toMatchObject({ reminderId: first, doneAt: expect.any(String) });
    expect(results[1]!.body).toMatchObject({ reminderId: second, reminderTime: later });
    expect(results[2]!.body).toMatchObject({ message: syncBatchMessages.missingId });

    // The same key sent singly afterwards is the same record: replayed, not done twice.
    const single = await t.app.inject({
      method: 'PUT',
      url: `/api/LeadStatus/reminders/${first}`,
      payload: { done: true },
      headers: { ...bearer(employee), 'idempotency-key': done.key },
    });
    expect(single.headers['idempotent-replayed']).toBe('true');
    expect(single.json()).toEqual(results[0]!.body);
  });

  it('answers 404 for an op on another employee’s lead and never applies it', async () => {
    const theirs = await insertLead(t.app, other);
    const mine = await insertLead(t.app, employee);
    const { results } = (
      await postBatch(t.app, employee, [noteOp(theirs), moveOp(theirs), noteOp(mine)])
    ).json();
    expect(results.map((r) => r.status)).toEqual([404, SYNC_HELD_STATUS, 201]);
    expect(results[0]!.body).toMatchObject({ status: 404 });
    expect(await noteCount(t.app, theirs)).toBe(0);
  });

  it('refuses a batch past its limits, with problem JSON', async () => {
    const lead = await insertLead(t.app, employee);
    const tooMany = Array.from({ length: 101 }, () => noteOp(lead));
    const many = await postBatch(t.app, employee, tooMany);
    expect(many.statusCode).toBe(400);
    expect(many.raw.headers['content-type']).toContain('application/problem+json');
    const same = noteOp(lead);
    expect((await postBatch(t.app, employee, [same, same])).statusCode).toBe(400);
    const huge = Array.from({ length: 90 }, () => noteOp(lead, 'x'.repeat(12_000)));
    expect((await postBatch(t.app, employee, huge)).statusCode).toBe(413);
    expect(await noteCount(t.app, lead)).toBe(0);
  });

  it('asks for a token, and a Manager cannot sync', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/sync', payload: { ops: [] } });
    expect(anonymous.statusCode).toBe(401);
    const manager = await createAccount(t.app, admin, Role.Manager);
    const lead = await insertLead(t.app, employee);
    expect((await postBatch(t.app, manager, [noteOp(lead)])).statusCode).toBe(403);
  });
});
