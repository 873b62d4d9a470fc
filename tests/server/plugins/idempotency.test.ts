import crypto from 'node:crypto';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { Role } from '../../../contract/roles';
import { syncMessages } from '../../../contract/sync';
import { type App, buildApp } from '../../../server/app';
import idempotency from '../../../server/plugins/idempotency';
import problemJson from '../../../server/plugins/problem-json';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

let t: TestApp;
let admin: Account;
let employee: Account;
let other: Account;
let statusIds: { connected: number; interested: number; booking: number };

async function insertLead(app: App, owner: Account): Promise<number> {
  const row = await app.deps.db
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

const key = () => crypto.randomUUID();
const note = (leadId: number, text = 'Called back') => ({
  leadId,
  notes: text,
  callStatusId: statusIds.connected,
  clientStatusId: statusIds.interested,
});

function postNote(app: App, account: Account, payload: object, idempotencyKey?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/LeadStatus',
    payload,
    headers: { ...bearer(account), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
  });
}

async function noteCount(app: App, leadId: number): Promise<number> {
  const rows = await app.deps.db
    .selectFrom('lead_notes')
    .select('id')
    .where('lead_id', '=', leadId)
    .execute();
  return rows.length;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
  other = await createAccount(t.app, admin, Role.Employee);
  const find = async (table: 'call_statuses' | 'client_statuses', name: string) =>
    (await t.app.deps.options.list(table)).find((o) => o.name === name)!.id;
  statusIds = {
    connected: await find('call_statuses', 'Connected'),
    interested: await find('client_statuses', 'Interested'),
    booking: await find('client_statuses', 'Booking'),
  };
});
afterAll(() => t.close());

describe('Idempotency-Key', () => {
  it('replays the first answer for a resend of the same request, and does the work once', async () => {
    const leadId = await insertLead(t.app, employee);
    const k = key();
    const first = await postNote(t.app, employee, note(leadId), k);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      const again = await postNote(t.app, employee, note(leadId), k);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers['content-type']).toContain('application/json');
      expect(again.json()).toEqual(first.json());
    }
    expect(await noteCount(t.app, leadId)).toBe(1);
  });

  it('answers 422 when a key comes back with another body or another path', async () => {
    const leadId = await insertLead(t.app, employee);
    const k = key();
    expect((await postNote(t.app, employee, note(leadId, 'one'), k)).statusCode).toBe(201);
    const changed = await postNote(t.app, employee, note(leadId, 'two'), k);
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toMatchObject({ status: 422, message: syncMessages.keyReused });
    const otherPath = await t.app.inject({
      method: 'PUT',
      url: `/api/LeadStatus/leads/${leadId}/status`,
      payload: note(leadId, 'one'),
      headers: { ...bearer(employee), 'idempotency-key': k },
    });
    expect(otherPath.statusCode).toBe(422);
    expect(await noteCount(t.app, leadId)).toBe(1);
  });

  it('stores a refusal too: a replayed first move still says a note is needed', async () => {
    const leadId = await insertLead(t.app, employee);
    const k = key();
    const move = () =>
      t.app.inject({
        method: 'PUT',
        url: `/api/LeadStatus/leads/${leadId}/status`,
        payload: { leadId, clientStatusId: statusIds.booking },
        headers: { ...bearer(employee), 'idempotency-key': k },
      });
    const first = await move();
    expect(first.statusCode).toBe(409);
    await postNote(t.app, employee, note(leadId));
    const replayed = await move();
    expect(replayed.statusCode).toBe(409);
    expect(replayed.headers['content-type']).toContain('application/problem+json');
    expect(replayed.json()).toMatchObject({ requireNotePopup: true, message: messages.board.requireNote });
  });

  it('adds one lead for a new lead sent twice with one key, even at once', async () => {
    const body = {
      name: 'Walk-in Buyer',
      phoneNo: `8${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`,
    };
    const k = key();
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/Admin/leads',
        payload: body,
        headers: { ...bearer(employee), 'idempotency-key': k },
      });
    const [a, b] = await Promise.all([send(), send()]);
    const c = await send();
    for (const res of [a, b, c].filter((r) => r.statusCode !== 409)) {
      expect(res.statusCode).toBe(201);
      expect(res.json().leadID).toBe(c.json().leadID);
    }
    expect(c.headers['idempotent-replayed']).toBe('true');
    const rows = await t.app.deps.db
      .selectFrom('leads')
      .select('id')
      .where('phone', '=', body.phoneNo)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('scopes keys per user', async () => {
    const mine = await insertLead(t.app, employee);
    const theirs = await insertLead(t.app, other);
    const k = key();
    expect((await postNote(t.app, employee, note(mine), k)).statusCode).toBe(201);
    const res = await postNote(t.app, other, note(theirs), k);
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await noteCount(t.app, theirs)).toBe(1);
  });

  it('does the work once when the same request arrives several times at once', async () => {
    const leadId = await insertLead(t.app, employee);
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => postNote(t.app, employee, note(leadId), k)),
    );
    const done = answers.filter((a) => a.statusCode === 201);
    expect(done.length).toBeGreaterThan(0);
    for (const a of answers) {
      if (a.statusCode === 201) expect(a.json()).toEqual(done[0]!.json());
      else expect(a.json()).toMatchObject({ status: 409, message: syncMessages.keyInFlight });
    }
    expect(done.filter((a) => a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await noteCount(t.app, leadId)).toBe(1);
  });

  it('answers 409 while the first request is in flight, and takes over a key abandoned by a dead node', async () => {
    const leadId = await insertLead(t.app, employee);
    const inFlight = key();
    const hash = (body: object) =>
      crypto
        .createHash('sha256')
        .update(`POST\n/api/leadstatus\n${JSON.stringify(body)}`)
        .digest('hex');
    await t.app.deps.db
      .insertInto('idempotency_keys')
      .values({
        user_id: employee.id,
        key: inFlight,
        method: 'POST',
        path: '/api/leadstatus',
        body_hash: hash(note(leadId)),
        status_code: null,
        response_body: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    const busy = await postNote(t.app, employee, note(leadId), inFlight);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe(syncMessages.keyInFlight);
    expect(await noteCount(t.app, leadId)).toBe(0);

    const abandoned = key();
    await t.app.deps.db
      .insertInto('idempotency_keys')
      .values({
        user_id: employee.id,
        key: abandoned,
        method: 'POST',
        path: '/api/leadstatus',
        body_hash: hash(note(leadId)),
        status_code: null,
        response_body: null,
        created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
      })
      .execute();
    const res = await postNote(t.app, employee, note(leadId), abandoned);
    expect(res.statusCode).toBe(201);
    expect(await noteCount(t.app, leadId)).toBe(1);
  });

  it('forgets a key after 24 hours', async () => {
    const leadId = await insertLead(t.app, employee);
    const k = key();
    expect((await postNote(t.app, employee, note(leadId), k)).statusCode).toBe(201);
    const dayAgo = new Date(Date.now() - 25 * 3600_000).toISOString();
    await t.app.deps.db
      .updateTable('idempotency_keys')
      .set({ created_at: dayAgo })
      .where('key', '=', k)
      .execute();
    const res = await postNote(t.app, employee, note(leadId), k);
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await noteCount(t.app, leadId)).toBe(2);
  });

  it('refuses a malformed key and ignores keys on reads and on anonymous calls', async () => {
    const leadId = await insertLead(t.app, employee);
    const long = await postNote(t.app, employee, note(leadId), 'k'.repeat(256));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(syncMessages.keyInvalid);
    const k = key();
    const read1 = await t.app.inject({
      url: '/api/LeadStatus/reminders',
      headers: { ...bearer(employee), 'idempotency-key': k },
    });
    expect(read1.headers['idempotent-replayed']).toBeUndefined();
    const login = { email: employee.email, password: employee.password };
    const a = await t.app.inject({
      method: 'POST',
      url: '/api/Registration/login',
      payload: login,
      headers: { 'idempotency-key': k },
    });
    const b = await t.app.inject({
      method: 'POST',
      url: '/api/Registration/login',
      payload: login,
      headers: { 'idempotency-key': k },
    });
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('Idempotency-Key across API nodes sharing one database', () => {
  it('replays on a second node what the first node answered, and runs concurrent duplicates once', async () => {
    // A second app on the same database (the same SQLite file, or the same PostgreSQL schema).
    const second = await buildApp(t.config, { logger: false });
    try {
      const leadId = await insertLead(t.app, employee);
      const k = key();
      const first = await postNote(t.app, employee, note(leadId), k);
      const replayed = await postNote(second, employee, note(leadId), k);
      expect(replayed.statusCode).toBe(201);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.json()).toEqual(first.json());

      const k2 = key();
      const both = await Promise.all([
        postNote(t.app, employee, note(leadId, 'raced'), k2),
        postNote(second, employee, note(leadId, 'raced'), k2),
        postNote(t.app, employee, note(leadId, 'raced'), k2),
        postNote(second, employee, note(leadId, 'raced'), k2),
      ]);
      expect(both.some((r) => r.statusCode === 201)).toBe(true);
      expect(both.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
      expect(await noteCount(t.app, leadId)).toBe(2);
    } finally {
      await second.close();
    }
  });
});

/**
 * A bare Fastify with the plugin (after whatever `before` registers), every request signed in as
 * the employee, for routes the real app does not have.
 */
async function probeApp(before?: (app: FastifyInstance) => PromiseLike<unknown>): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.decorate('deps', t.app.deps);
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    request.user = { userId: employee.id, email: employee.email, roleId: Role.Employee, tokenVersion: 0 };
  });
  await app.register(problemJson);
  await before?.(app);
  await app.register(idempotency);
  return app;
}

describe('Idempotency-Key when the work fails', () => {
  it('frees the key after a 5xx or a 429 so a retry runs, and keeps it after a success', async () => {
    // A route that fails the first two times.
    const app = await probeApp();
    let calls = 0;
    app.post('/api/flaky', async (_request, reply) => {
      calls += 1;
      if (calls === 1) throw new Error('database went away');
      if (calls === 2) return reply.status(429).send({ message: 'slow down' });
      return reply.status(201).send({ done: calls });
    });
    await app.ready();
    try {
      const k = key();
      const send = () =>
        app.inject({
          method: 'POST',
          url: '/api/flaky',
          payload: { a: 1 },
          headers: { 'idempotency-key': k },
        });
      expect((await send()).statusCode).toBe(500);
      expect((await send()).statusCode).toBe(429);
      const ok = await send();
      expect(ok.statusCode).toBe(201);
      const replay = await send();
      expect(replay.statusCode).toBe(201);
      expect(replay.json()).toEqual({ done: 3 });
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(calls).toBe(3);
    } finally {
      await app.close();
    }
  });
  it('keeps the JSON of an answer sent compressed, and replays it', async () => {
    // As in server/app.ts: compression is registered before idempotency, so its onSend is on the
    // route first; the answer must still be recorded as JSON, not as the compressed stream.
    const app = await probeApp((probe) => probe.register(fastifyCompress, { threshold: 2048 }));
    let calls = 0;
    app.post('/api/big', async (_request, reply) => {
      calls += 1;
      return reply
        .status(201)
        .send({ call: calls, items: Array.from({ length: 300 }, (_, i) => `item ${i}`) });
    });
    await app.ready();
    try {
      const k = key();
      const send = () =>
        app.inject({
          method: 'POST',
          url: '/api/big',
          payload: { a: 1 },
          headers: { 'idempotency-key': k, 'accept-encoding': 'gzip' },
        });
      const first = await send();
      expect(first.statusCode).toBe(201);
      expect(first.headers['content-encoding']).toBe('gzip');
      const again = await send();
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(JSON.parse(zlib.gunzipSync(again.rawPayload).toString())).toEqual(
        JSON.parse(zlib.gunzipSync(first.rawPayload).toString()),
      );
      expect(calls).toBe(1);
    } finally {
      await app.close();
    }
  });
});
