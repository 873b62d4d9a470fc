import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadRows, toWorkbook } from '../../../bench/lead-sheets';
import { IDEMPOTENT_REPLAYED_HEADER, syncMessages } from '../../../contract/sync';
import {
  ADMIN,
  type Answer,
  call,
  createStore,
  killLeftovers,
  login,
  registerEmployee,
  type ServerProcess,
  type Store,
  startServerProcess,
  upload,
} from './support/server-process';

// Issue 6, Faults: idempotency across two server processes on one database (PostgreSQL when
// TEST_DATABASE_URL is set, as a multi-node agency runs it; else one SQLite file). The outbox
// sends each write with its row id as Idempotency-Key; whichever node gets it, and however many
// times, the write happens once and every answer is the first one.

const KEYS = 20;

let store: Store;
let nodes: [ServerProcess, ServerProcess];
let employee: { token: string };
let leadIds: number[];
let options: { callStatusId: number; clientStatusId: number };

beforeAll(async () => {
  store = await createStore();
  const first = await startServerProcess(store);
  nodes = [first, await startServerProcess(store)];
  const admin = await login(first.url, ADMIN.email, ADMIN.password);
  employee = await registerEmployee(first.url, admin);
  expect(
    (await upload(first.url, admin, toWorkbook(leadRows(KEYS, { phoneBase: 7_010_000_000 })))).status,
  ).toBe(200);
  leadIds = (await call(first.url, employee.token, 'GET', '/api/Admin/leads'))
    .json<{ leadID: number }[]>()
    .map((l) => l.leadID);
  const calls = await call(first.url, employee.token, 'GET', '/api/LeadStatus/call-statuses');
  const clients = await call(first.url, employee.token, 'GET', '/api/LeadStatus/client-statuses');
  options = {
    callStatusId: calls.json<{ callStatusId: number }[]>()[0]!.callStatusId,
    clientStatusId: clients.json<{ clientStatusId: number }[]>()[0]!.clientStatusId,
  };
}, 60_000);

afterAll(async () => {
  killLeftovers();
  await store?.drop();
});

const postNote = (node: ServerProcess, key: string, notes: string, leadId: number) =>
  call(
    node.url,
    employee.token,
    'POST',
    '/api/LeadStatus',
    { leadId, notes, ...options },
    { 'idempotency-key': key },
  );

const countNotes = async (notes: string) =>
  Number(
    (await store.query<{ n: number }>(`select count(*) as n from lead_notes where notes = '${notes}'`))[0]!.n,
  );

/** The same key's answers: one original, the rest its replays (or "still in flight" 409s). */
function expectOneEffect(answers: Answer[], created: number) {
  const originals = answers.filter((a) => a.status === created && !a.headers.get(IDEMPOTENT_REPLAYED_HEADER));
  expect(originals).toHaveLength(1);
  for (const a of answers) {
    if (a === originals[0]) continue;
    if (a.status === 409) expect(a.json()).toMatchObject({ message: syncMessages.keyInFlight });
    else {
      expect(a.status).toBe(created);
      expect(a.headers.get(IDEMPOTENT_REPLAYED_HEADER)).toBe('true');
      expect(a.json()).toEqual(originals[0]!.json());
    }
  }
}

describe('one Idempotency-Key sent to two server processes at once', () => {
  it('saves each note once and answers every copy with the first answer', async () => {
    const tag = crypto.randomBytes(3).toString('hex');
    await Promise.all(
      Array.from({ length: KEYS }, async (_, i) => {
        const key = crypto.randomUUID();
        const text = `raced ${tag} ${i}`;
        const answers = await Promise.all([
          postNote(nodes[0], key, text, leadIds[i]!),
          postNote(nodes[1], key, text, leadIds[i]!),
          postNote(nodes[i % 2]!, key, text, leadIds[i]!),
        ]);
        expectOneEffect(answers, 201);
        expect(await countNotes(text)).toBe(1);
      }),
    );
  }, 60_000);

  it('adds each new lead once', async () => {
    const answers = await Promise.all(
      Array.from({ length: KEYS }, async (_, i) => {
        const key = crypto.randomUUID();
        const lead = { name: `Offline lead ${i}`, phoneNo: String(7_020_000_000 + i) };
        const copies = await Promise.all(
          [0, 1, 0, 1].map((n) =>
            call(nodes[n]!.url, employee.token, 'POST', '/api/Admin/leads', lead, { 'idempotency-key': key }),
          ),
        );
        expectOneEffect(copies, 201);
        return copies;
      }),
    );
    expect(answers).toHaveLength(KEYS);
    const [row] = await store.query<{ n: number }>(
      `select count(*) as n from leads where phone >= '7020000000' and phone < '${7_020_000_000 + KEYS}'`,
    );
    expect(Number(row!.n)).toBe(KEYS);
  }, 60_000);

  it('replays on the other node a note whose answer was lost after the first node committed it', async () => {
    const key = crypto.randomUUID();
    const text = `lost answer ${crypto.randomBytes(3).toString('hex')}`;
    const body = JSON.stringify({ leadId: leadIds[0], notes: text, ...options });
    // The phone sends the note; the server stores it; the answer never reaches the phone.
    const { port } = new URL(nodes[0].url);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.pause();
    socket.write(
      `POST /api/LeadStatus HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${employee.token}\r\n` +
        `content-type: application/json\r\nidempotency-key: ${key}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    while ((await countNotes(text)) === 0) await new Promise((r) => setTimeout(r, 10));
    socket.destroy();

    // The outbox resends it; the load balancer sends it to the other node.
    const replay = await postNote(nodes[1], key, text, leadIds[0]!);
    expect(replay.status).toBe(201);
    expect(replay.headers.get(IDEMPOTENT_REPLAYED_HEADER)).toBe('true');
    expect(replay.json()).toMatchObject({ leadId: leadIds[0], message: expect.any(String) });
    const again = await postNote(nodes[0], key, text, leadIds[0]!);
    expect(again.json()).toEqual(replay.json());
    expect(await countNotes(text)).toBe(1);
  }, 60_000);
});
