import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import { MAX_JSON_DEPTH, tooDeepMessage } from '../../../server/plugins/json-body';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

// Issue 16, finding 7: 20 KB of JSON nested 10,000 deep with an Idempotency-Key answered 500 (the
// key's fingerprint re-serialised the body recursively and overflowed the stack).

let t: TestApp;
let employee: Account;
let leadId: number;
let statusIds: { callStatusId: number; clientStatusId: number };

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
  const lead = await t.app.inject({
    method: 'POST',
    url: '/api/Admin/leads',
    headers: bearer(employee),
    payload: { name: 'Deep Lead', phoneNo: `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}` },
  });
  leadId = lead.json().leadID;
  const id = async (table: 'call_statuses' | 'client_statuses', name: string) =>
    (await t.app.deps.options.list(table)).find((o) => o.name === name)!.id;
  statusIds = {
    callStatusId: await id('call_statuses', 'Connected'),
    clientStatusId: await id('client_statuses', 'Interested'),
  };
});
afterAll(() => t.close());

const postNote = (payload: string, key: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/LeadStatus',
    payload,
    headers: { ...bearer(employee), 'content-type': 'application/json', 'idempotency-key': key },
  });

const nested = (depth: number, open: string, close: string, inner = '1') =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

describe('JSON bodies nested too deep', () => {
  it.each([
    ['arrays', nested(10_000, '[', ']')],
    ['objects', nested(10_000, '{"a":', '}')],
    ['a note whose field nests', `{"leadId":1,"notes":${nested(10_000, '[', ']')}}`],
  ])('refuses 10,000 levels of %s with 400 problem JSON, and stays healthy', async (_, body) => {
    const res = await postNote(body, crypto.randomUUID());
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 400, message: tooDeepMessage });
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it(`takes ${MAX_JSON_DEPTH} levels, and brackets inside strings do not count`, async () => {
    // As deep as allowed: the route's schema refuses it, not the depth check.
    const deepest = await postNote(nested(MAX_JSON_DEPTH, '[', ']'), crypto.randomUUID());
    expect(deepest.statusCode).toBe(400);
    expect(deepest.json().message).not.toBe(tooDeepMessage);
    const note = JSON.stringify({ leadId, notes: `[{"\\"${'['.repeat(100)}`, ...statusIds });
    const saved = await postNote(note, crypto.randomUUID());
    expect(saved.statusCode).toBe(201);
  });
});

describe('the Idempotency-Key fingerprint', () => {
  it('is taken over the bytes sent: the same bytes replay, other bytes are another request', async () => {
    const key = crypto.randomUUID();
    const body = JSON.stringify({ leadId, notes: 'Called back', ...statusIds });
    const first = await postNote(body, key);
    expect(first.statusCode).toBe(201);
    const again = await postNote(body, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const reworded = await postNote(JSON.stringify({ leadId, notes: 'Called again', ...statusIds }), key);
    expect(reworded.statusCode).toBe(422);
  });
});
