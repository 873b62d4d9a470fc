import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import {
  type Account,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { fromSchema, type JsonSchema, nastyString, wrongValue } from './support/schema-arbitrary';

// Issue 6, Fuzzing: property-based requests through the real app, driven by the route schemas
// the app publishes (GET /api/openapi.json). Every route gets generated bodies, query strings,
// path parameters and headers, as every kind of caller. Property: no answer is a 5xx, and every
// 4xx is problem JSON with a title and a message.

// About 40 s on two cores for the default; FUZZ_RUNS=20000 for a longer hunt.
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);

interface Route {
  method: string;
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  body: JsonSchema | null;
}

interface Generated {
  route: Route;
  path: Record<string, string>;
  query: string;
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; type: string };
  who: string;
  headers: Record<string, string>;
}

let t: TestApp;
let routes: Route[];
let tokens: Record<string, string | undefined>;
let leadIds: number[];

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createFirstAdmin(t.app);
  const manager = await createAccount(t.app, admin, Role.Manager);
  const employee = await createAccount(t.app, admin, Role.Employee);
  const other = await createAccount(t.app, admin, Role.Employee);
  leadIds = [];
  for (let i = 0; i < 12; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/leads',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: {
        name: `Fuzz lead ${i}`,
        phoneNo: `98765${String(i).padStart(5, '0')}`,
        assignedTo: i < 8 ? employee.email : '',
      },
    });
    expect(res.statusCode).toBe(201);
    leadIds.push(res.json().leadID);
  }
  const [head, body] = admin.token.split('.') as [string, string];
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
  const forged = Buffer.from(JSON.stringify({ ...claims, roleId: 1, sub: String(employee.id) })).toString(
    'base64url',
  );
  const accounts: Record<string, Account> = { admin, manager, employee, other };
  tokens = {
    anonymous: undefined,
    ...Object.fromEntries(Object.entries(accounts).map(([k, a]) => [k, `Bearer ${a.token}`])),
    forged: `Bearer ${head}.${forged}.${admin.token.split('.')[2]}`,
    garbage: `Bearer ${crypto.randomBytes(24).toString('base64url')}`,
    basic: 'Basic YWRtaW46YWRtaW4=',
    empty: 'Bearer ',
  };

  const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string; schema: JsonSchema }[];
          requestBody?: { content: Record<string, { schema: JsonSchema }> };
        }
      >
    >;
  };
  routes = Object.entries(doc.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        query: Object.fromEntries(
          (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]),
        ),
        body: op.requestBody?.content['application/json']?.schema ?? null,
      })),
    )
    // Sign-out takes no input and ends the caller's tokens: every later call of that caller would
    // be a 401 and fuzz nothing (the access matrix and tests/server/security cover it).
    .filter((r) => !(r.method === 'POST' && r.path.toLowerCase() === '/api/registration/logout'));
  // The upload reads multipart; give it the shape its spec has even though OpenAPI does not.
  expect(routes.length).toBeGreaterThan(20);
}, 60_000);

afterAll(() => t?.close());

const printable = fc.stringMatching(/^[\x20-\x7e]{0,60}$/);

/** Each header is sent now and then, so most requests still reach the handler. */
const sometimes = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: value, weight: 1 });

const headerArb: fc.Arbitrary<Record<string, string>> = fc
  .record({
    'idempotency-key': sometimes(
      fc.oneof({ arbitrary: fc.uuid().map(String), weight: 3 }, printable, fc.constant('a'.repeat(300))),
    ),
    'if-none-match': sometimes(fc.oneof(fc.constantFrom('*', 'W/"x"', '"abc"', ''), printable)),
    'accept-encoding': sometimes(
      fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'gzip;q=0, *;q=0', 'zstd', '*'),
    ),
    accept: sometimes(fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml', '')),
    'x-forwarded-for': sometimes(fc.oneof(fc.ipV4(), printable)),
    origin: sometimes(fc.constantFrom('https://evil.example', 'null', 'http://localhost:8093')),
    range: sometimes(fc.constantFrom('bytes=0-10', 'bytes=-1', 'items=0-5')),
    cookie: sometimes(printable),
  })
  .map(
    (h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>,
  );

function queryArb(route: Route): fc.Arbitrary<string> {
  const known = Object.entries(route.query).map(([name, schema]) =>
    fromSchema(schema).map((v) => [name, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]),
  );
  const pair = fc.oneof(...(known.length > 0 ? [{ arbitrary: fc.oneof(...known), weight: 4 }] : []), {
    arbitrary: fc.tuple(fc.string({ maxLength: 8 }), nastyString),
    weight: 1,
  });
  return fc
    .tuple(
      fc.array(pair, { maxLength: 5 }),
      fc.oneof(
        { arbitrary: fc.constant(''), weight: 6 },
        { arbitrary: fc.constantFrom('%', '%zz', '&&', '=', 'a[]=1&a[]=2', 'x=%E0%A4%A'), weight: 1 },
      ),
    )
    .map(([pairs, raw]) =>
      [...pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`), raw]
        .filter(Boolean)
        .join('&'),
    );
}

function bodyArb(route: Route): fc.Arbitrary<Generated['body']> {
  const raw = fc.record({
    kind: fc.constant('raw' as const),
    text: fc.oneof(
      nastyString,
      fc.constantFrom(
        '{"a":',
        '{"__proto__":{"x":1}}',
        '{"constructor":{"prototype":{"x":1}}}',
        'null',
        '[1,2',
      ),
    ),
    type: fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=zz',
      'application/json; charset=latin1',
      'x/y',
    ),
  });
  const json = (value: fc.Arbitrary<unknown>) => value.map((v) => ({ kind: 'json' as const, value: v }));
  if (!route.body)
    return fc.oneof(
      { arbitrary: fc.constant({ kind: 'none' as const }), weight: 6 },
      { arbitrary: json(wrongValue), weight: 1 },
      { arbitrary: raw, weight: 1 },
    );
  return fc.oneof(
    { arbitrary: json(fromSchema(route.body)), weight: 8 },
    { arbitrary: json(wrongValue), weight: 1 },
    { arbitrary: raw, weight: 1 },
    { arbitrary: fc.constant({ kind: 'none' as const }), weight: 1 },
  );
}

const requestArb: () => fc.Arbitrary<Generated> = () =>
  fc.constantFrom(...routes).chain((route) =>
    fc.record({
      route: fc.constant(route),
      path: fc.record(
        Object.fromEntries(
          route.pathParams.map((p) => [
            p,
            fc.oneof(
              { arbitrary: fc.constantFrom(...leadIds.map(String)), weight: 4 },
              { arbitrary: fc.integer().map(String), weight: 1 },
              { arbitrary: nastyString.map((s) => encodeURIComponent(s)), weight: 1 },
            ),
          ]),
        ),
      ),
      query: queryArb(route),
      body: bodyArb(route),
      // Mostly real callers, so requests get past authentication to the handlers.
      who: fc.oneof(
        { arbitrary: fc.constantFrom('admin', 'employee'), weight: 6 },
        { arbitrary: fc.constantFrom('manager', 'other'), weight: 2 },
        { arbitrary: fc.constantFrom('anonymous', 'forged', 'garbage', 'basic', 'empty'), weight: 2 },
      ),
      headers: headerArb,
    }),
  );

/** What earlier runs found (each answered 500 or plain JSON then), tried first on every run. */
function foundBefore(): Generated[] {
  const on = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)!;
  const get = (path: string, query: string, pathValues: Record<string, string> = {}): Generated => ({
    route: on('GET', path),
    path: pathValues,
    query,
    body: { kind: 'none' },
    who: 'admin',
    headers: {},
  });
  return [
    get('/api/LeadStatus/leads/{id}/history', '', { id: 'x'.repeat(101) }),
    get('/api/Admin/leads', 'afterId=2147483648'),
    get('/api/Admin/leads', 'pageSize=2335&page=3950052264177635'),
    get('/api/Registration/check-email', 'email=%00'),
    get('/api/Search/leads', 'q=%00'),
    {
      ...get('/api/LeadStatus', ''),
      route: on('POST', '/api/LeadStatus'),
      body: {
        kind: 'json',
        value: { leadId: leadIds[0], notes: 'a\u0000b', callStatusId: 1, clientStatusId: 1 },
      },
      who: 'employee',
    },
  ];
}

describe('fuzzing every route from its schema', () => {
  it('never answers 5xx, and every 4xx is problem JSON with a title and a message', async () => {
    const statuses: Record<number, number> = {};
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(requestArb(), async (g) => {
        let url = g.route.path.replace(/\{(\w+)\}/g, (_, name: string) => g.path[name] ?? '1');
        if (g.query) url += `?${g.query}`;
        const headers: Record<string, string> = { ...g.headers };
        const auth = tokens[g.who];
        if (auth) headers.authorization = auth;
        let payload: string | undefined;
        if (g.body.kind === 'json') {
          payload = JSON.stringify(g.body.value) ?? 'null';
          headers['content-type'] = 'application/json';
        } else if (g.body.kind === 'raw') {
          payload = g.body.text;
          headers['content-type'] = g.body.type;
        }
        const res = await t.app.inject({ method: g.route.method as 'GET', url, headers, payload });
        sent += 1;
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        const where = `${g.route.method} ${url} as ${g.who}: ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(res.headers['content-type'], where).toContain('application/problem+json');
          const problem = res.json() as { title?: unknown; message?: unknown; status?: unknown };
          expect(typeof problem.title === 'string' && problem.title.length > 0, where).toBe(true);
          expect(typeof problem.message === 'string' && problem.message.length > 0, where).toBe(true);
          expect(problem.status, where).toBe(res.statusCode);
        }
      }),
      // FUZZ_SEED replays the run that fast-check's failure report names.
      {
        numRuns: RUNS,
        examples: foundBefore().map((g) => [g]),
        ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
      },
    );
    console.log(`fuzz: ${sent} requests over ${routes.length} routes, answers ${JSON.stringify(statuses)}`);
    expect(sent).toBeGreaterThanOrEqual(RUNS);
  }, 120_000);
});
