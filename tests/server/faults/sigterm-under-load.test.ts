import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadRows, toWorkbook } from '../../../bench/lead-sheets';
import {
  ADMIN,
  createStore,
  killLeftovers,
  login,
  registerEmployee,
  type ServerProcess,
  type Store,
  startServerProcess,
  upload,
} from './support/server-process';

// Issue 6, Faults: SIGTERM while employees read and write and an admin's import runs. The
// requests in flight finish (the import commits, every answered note is stored), a request that
// arrives after the signal gets a 503 problem JSON, and the process exits with code 0.

const OWN_LEADS = 20;
// Long enough to still be running when the signal lands, well inside the 30 s drain limit.
const IMPORT_ROWS = 20_000;
const CLIENTS_PER_KIND = 2;

type Kind = 'list' | 'note' | 'stats';
interface Outcome {
  kind: Kind;
  /** Sent before the test sent SIGTERM (it may still have been on its way to the server). */
  beforeSignal: boolean;
  /** Answered after the test sent SIGTERM. */
  answeredAfterSignal?: boolean;
  /** Sent after the server logged that it is shutting down. */
  afterDrainLogged: boolean;
  status?: number;
  contentType?: string;
  body?: string;
  error?: string;
}

let store: Store;
let server: ServerProcess;
let admin: string;
let employee: string;
let leadIds: number[];
let callStatusId: number;
let clientStatusId: number;

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  store = await createStore();
  server = await startServerProcess(store);
  admin = await login(server.url, ADMIN.email, ADMIN.password);
  employee = (await registerEmployee(server.url, admin)).token;
  const seeded = await upload(
    server.url,
    admin,
    toWorkbook(leadRows(OWN_LEADS, { phoneBase: 7_200_000_000 })),
  );
  expect(seeded.status).toBe(200);
  const leads = await fetch(`${server.url}/api/Admin/leads`, { headers: auth(employee) });
  leadIds = ((await leads.json()) as { leadID: number }[]).map((l) => l.leadID);
  expect(leadIds).toHaveLength(OWN_LEADS);
  const calls = await fetch(`${server.url}/api/LeadStatus/call-statuses`, { headers: auth(employee) });
  callStatusId = ((await calls.json()) as { callStatusId: number }[])[0]!.callStatusId;
  const clients = await fetch(`${server.url}/api/LeadStatus/client-statuses`, { headers: auth(employee) });
  clientStatusId = ((await clients.json()) as { clientStatusId: number }[])[0]!.clientStatusId;
}, 60_000);

afterAll(async () => {
  killLeftovers();
  await store?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SIGTERM under load', () => {
  it('finishes the requests in flight, answers new ones 503 problem JSON and exits with code 0', async () => {
    const state = { signalled: false, drainLogged: false };
    const outcomes: Outcome[] = [];
    let sent = 0;
    const send = (kind: Kind): Promise<Response> => {
      sent += 1;
      if (kind === 'list') return fetch(`${server.url}/api/Admin/leads`, { headers: auth(employee) });
      if (kind === 'stats') return fetch(`${server.url}/api/Admin/stats`, { headers: auth(admin) });
      return fetch(`${server.url}/api/LeadStatus`, {
        method: 'POST',
        headers: { ...auth(employee), 'content-type': 'application/json' },
        body: JSON.stringify({
          leadId: leadIds[sent % leadIds.length],
          notes: `call ${sent}`,
          callStatusId,
          clientStatusId,
        }),
      });
    };
    // Each client works until the server turns it away (a real client would then back off).
    const client = async (kind: Kind) => {
      for (;;) {
        const outcome: Outcome = {
          kind,
          beforeSignal: !state.signalled,
          afterDrainLogged: state.drainLogged,
        };
        outcomes.push(outcome);
        try {
          const res = await send(kind);
          outcome.status = res.status;
          outcome.answeredAfterSignal = state.signalled;
          outcome.contentType = res.headers.get('content-type') ?? '';
          outcome.body = await res.text();
        } catch (error) {
          const cause = (error as { cause?: { code?: string } }).cause;
          outcome.error = cause?.code ?? String(error);
          return;
        }
        if (outcome.status === 503) return;
      }
    };
    const kinds: Kind[] = ['list', 'note', 'stats'];
    const clients = kinds.flatMap((kind) => Array.from({ length: CLIENTS_PER_KIND }, () => client(kind)));
    while (outcomes.filter((o) => o.status !== undefined).length < 60) await sleep(20);

    // A long request in flight: an import, seen inside its write transaction.
    const importing = upload(
      server.url,
      admin,
      toWorkbook(leadRows(IMPORT_ROWS, { phoneBase: 7_300_000_000 })),
    );
    let imported: Response | undefined;
    void importing.then((res) => {
      imported = res;
    });
    while (!(await store.writerActive())) {
      expect(imported, 'the import answered before it was seen running').toBeUndefined();
      await sleep(20);
    }

    state.signalled = true;
    server.kill('SIGTERM');
    await server.waitForLog(/shutting down/);
    state.drainLogged = true;

    const late = await fetch(`${server.url}/api/health`);
    expect(late.status).toBe(503);
    expect(late.headers.get('content-type')).toContain('application/problem+json');
    expect(late.headers.get('retry-after')).toBeTruthy();
    expect(await late.json()).toMatchObject({
      status: 503,
      title: expect.any(String),
      message: expect.any(String),
    });

    const answer = await importing;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ inserted: IMPORT_ROWS });
    expect((await server.exited).code).toBe(0);
    expect(server.output()).toMatch(/"msg":"shut down"/);
    await Promise.all(clients);

    // Requests sent before the signal all got an answer: their real one (2xx) — those answered
    // after the signal were in flight across it — or, when they had not reached the server
    // before the signal, a 503. None was cut off.
    const early = outcomes.filter((o) => o.beforeSignal);
    expect(early.filter((o) => !(o.status && (o.status < 300 || o.status === 503)))).toEqual([]);
    const acrossSignal = early.filter((o) => o.status! < 300 && o.answeredAfterSignal).length;
    // Nothing sent after the drain began did any work; each was answered 503 problem JSON, or,
    // once the process had stopped listening, found no server at all.
    expect(outcomes.filter((o) => o.afterDrainLogged && o.status && o.status < 300)).toEqual([]);
    const refused = outcomes.filter((o) => o.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) {
      expect(o.contentType).toContain('application/problem+json');
      expect(JSON.parse(o.body!)).toMatchObject({ title: expect.any(String), message: expect.any(String) });
    }
    const odd = outcomes.filter((o) => o.status !== undefined && o.status !== 503 && o.status >= 300);
    expect(odd).toEqual([]);
    expect(outcomes.filter((o) => o.error && o.beforeSignal)).toEqual([]);

    // After a restart: the import committed, and every note answered 201 is stored, no more.
    server = await startServerProcess(store);
    const notesAnswered = outcomes.filter((o) => o.kind === 'note' && o.status === 201).length;
    expect(notesAnswered).toBeGreaterThan(0);
    const [notes] = await store.query<{ n: number }>('select count(*) as n from lead_notes');
    expect(Number(notes!.n)).toBe(notesAnswered);
    const [leads] = await store.query<{ n: number }>('select count(*) as n from leads');
    expect(Number(leads!.n)).toBe(OWN_LEADS + IMPORT_ROWS);
    console.log(
      `SIGTERM under load: ${outcomes.length} requests, ${early.length} sent before the signal, ` +
        `${acrossSignal} of them in flight across it and answered 2xx, ${refused.length} answered 503 while ` +
        `draining, ${notesAnswered} notes answered 201 and stored`,
    );

    server.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  }, 90_000);
});
