// `npm run bench:api [-- --pg [url]] [--profile] [--seconds 5] [--rounds 3]` (issue 7): what the API costs over bare
// Fastify. In one process it starts the real app on a fresh database (a temp SQLite file; a fresh
// schema of PostgreSQL with --pg or TEST_DATABASE_URL), seeds an employee holding 200 leads among
// 100,000, then loads, one after the other with autocannon on loopback, (a) the employee's
// GET /api/Admin/leads and (b) a bare Fastify route answering the same JSON from memory, and
// prints requests/s, p99 and the ratio a/b (target ≥ 0.7). Then the same list revalidated with
// If-None-Match and fetched with Accept-Encoding, and the query plans of the list and stats
// queries. autocannon runs as a child process, not on the servers' event loop.
//
// `--compare-build` (issue 16) instead compares the two ways of running the server, as child
// processes on one seeded SQLite data dir: the compiled bundle `npm start` runs
// (node dist-server/main.mjs) and the TypeScript loader (node --import tsx server/main.ts):
// start time (spawn to the first 200 from /api/health, median of --starts, alternating) and
// the same employee list under autocannon in alternating rounds.

import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Result } from 'autocannon';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { Role } from '../contract/roles';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import type { Db } from '../server/db/database';
import { createAccount, createFirstAdmin, createTestApp } from '../tests/helpers/test-server';
import { printQueryPlans } from './query-plans';

const { values: args } = parseArgs({
  options: {
    pg: { type: 'string' },
    profile: { type: 'boolean', default: false },
    seconds: { type: 'string', default: process.env.BENCH_SECONDS ?? '5' },
    rounds: { type: 'string', default: '3' },
    'compare-build': { type: 'boolean', default: false },
    starts: { type: 'string', default: '7' },
  },
  // `--pg` alone takes TEST_DATABASE_URL or the local test database.
  args: process.argv
    .slice(2)
    .flatMap((a, i, all) =>
      a === '--pg' && (all[i + 1] === undefined || all[i + 1]!.startsWith('--'))
        ? [a, process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test']
        : [a],
    ),
});
const DURATION = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = 10;
const OWN_LEADS = 200;
const TOTAL_LEADS = 100_000;
const outDir = path.resolve(import.meta.dirname, 'out');

const pgUrl = args.pg ?? process.env.TEST_DATABASE_URL;
// createTestApp puts the app in a fresh schema of this database and drops it on close.
if (pgUrl) process.env.TEST_DATABASE_URL = pgUrl;

const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

function load(url: string, headers: Record<string, string> = {}): Promise<Result> {
  const cli = [autocannonCli, '-j', '-c', String(CONNECTIONS), '-d', String(DURATION)];
  for (const [name, value] of Object.entries(headers)) cli.push('-H', `${name}=${value}`);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...cli, url], { maxBuffer: 1 << 24 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as Result),
    );
  });
}

/** Runs `load` with the CPU profiler on, written to bench/out/<name>.cpuprofile. */
async function profiled(name: string, run: () => Promise<Result>): Promise<Result> {
  if (!args.profile) return run();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `${name}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    console.log(`  (profile of ${name} written to ${path.relative(process.cwd(), file)})`);
    session.disconnect();
  }
}

async function seed(
  database: Pick<Db, 'db' | 'dialect'>,
  adminId: number,
  employeeId: number,
  otherEmployeeId: number,
) {
  const now = new Date().toISOString();
  const lead = (i: number, assignedTo: number | null) => ({
    name: `Lead ${i}`,
    email: `lead${i}@example.com`,
    phone: `9${String(i).padStart(9, '0')}`,
    visit_date_time: now,
    configuration: '2 BHK',
    site_visit: `Campaign ${i % 7}`,
    location: 'Pune',
    interested_in: '2 BHK',
    assigned_to_id: assignedTo,
    assigned_date: assignedTo ? now : null,
    created_at: now,
    created_by: adminId,
    deleted_at: null,
  });
  const others = TOTAL_LEADS - OWN_LEADS;
  const rows = [
    ...Array.from({ length: OWN_LEADS }, (_, i) => lead(i, employeeId)),
    ...Array.from({ length: others }, (_, i) => lead(OWN_LEADS + i, i % 2 ? otherEmployeeId : null)),
  ];
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('leads')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  });
  // Half of the employee's leads have a status record, so the list's joins find something.
  const callStatus = await database.db.selectFrom('call_statuses').select('id').executeTakeFirstOrThrow();
  const clientStatus = await database.db.selectFrom('client_statuses').select('id').executeTakeFirstOrThrow();
  const own = await database.db
    .selectFrom('leads')
    .select('id')
    .where('assigned_to_id', '=', employeeId)
    .orderBy('id')
    .limit(OWN_LEADS / 2)
    .execute();
  await database.db
    .insertInto('lead_statuses')
    .values(
      own.map((l) => ({
        lead_id: l.id,
        call_status_id: callStatus.id,
        client_status_id: clientStatus.id,
        client_priority_id: 1,
        token_id: 1,
        notes: 'Called, interested',
        created_by: 'bench',
        created_on: now,
        last_updated_by: 'bench',
        last_updated_on: now,
      })),
    )
    .execute();
  // Statistics for the planner, as autovacuum / a long-running database would have them.
  await sql`analyze`.execute(database.db);
}

/** Several runs of one load as one: mean requests/s, the worst p99, summed counts. */
function merged(results: Result[]): Result {
  const sum = (pick: (r: Result) => number) => results.reduce((n, r) => n + pick(r), 0);
  return {
    requests: {
      total: sum((r) => r.requests.total),
      average: sum((r) => r.requests.average) / results.length,
    },
    latency: {
      p50: Math.max(...results.map((r) => r.latency.p50)),
      p99: Math.max(...results.map((r) => r.latency.p99)),
      average: sum((r) => r.latency.average) / results.length,
    },
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
    '2xx': sum((r) => r['2xx']),
    '3xx': sum((r) => r['3xx']),
    '4xx': sum((r) => r['4xx']),
    '5xx': sum((r) => r['5xx']),
  };
}

const line = (name: string, r: Result) =>
  `  ${name.padEnd(44)} ${r.requests.average.toFixed(0).padStart(7)} req/s  p99 ${String(r.latency.p99).padStart(4)} ms  ` +
  `2xx ${r['2xx']}  3xx ${r['3xx']}  4xx/5xx ${r['4xx'] + r['5xx']}  errors ${r.errors}`;

const root = path.resolve(import.meta.dirname, '..');

interface Variant {
  name: string;
  args: string[];
}
const variants: Variant[] = [
  { name: 'compiled (node dist-server/main.mjs)', args: ['--enable-source-maps', 'dist-server/main.mjs'] },
  { name: 'tsx (node --import tsx server/main.ts)', args: ['--import', 'tsx', 'server/main.ts'] },
];

async function startVariant(
  variant: Variant,
  dataDir: string,
  port: number,
): Promise<{ ms: number; child: ChildProcess }> {
  const started = performance.now();
  const child = spawn(process.execPath, variant.args, {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      STATIC_DIR: 'none',
      LOG_LEVEL: 'warn',
      SEED_ADMIN: 'false',
    },
    stdio: 'ignore',
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${variant.name} exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { ms: performance.now() - started, child };
    await new Promise((r) => setTimeout(r, 5));
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function compareBuild(): Promise<void> {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build:server failed: ${built.stderr}`);
  const dataDir = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'leadnest-bench-build-'));
  try {
    const config = loadConfig({
      DATA_DIR: dataDir,
      STATIC_DIR: 'none',
      LOG_LEVEL: 'silent',
      SEED_ADMIN: 'false',
    });
    const app = await buildApp(config, { logger: false });
    const admin = await createFirstAdmin(app);
    const employee = await createAccount(app, admin, Role.Employee);
    const colleague = await createAccount(app, admin, Role.Employee);
    await seed({ db: app.deps.db, dialect: app.deps.dialect }, admin.id, employee.id, colleague.id);
    await app.close();
    const headers = { authorization: `Bearer ${employee.token}` };
    const { freePort } = await import('../tests/helpers/free-port');

    const starts = Number(args.starts);
    const startMs: number[][] = variants.map(() => []);
    for (let i = 0; i < starts; i++) {
      for (const v of i % 2 ? [1, 0] : [0, 1]) {
        const { ms, child } = await startVariant(variants[v]!, dataDir, await freePort());
        startMs[v]!.push(ms);
        await stopChild(child);
      }
    }
    console.log(
      `Server start, spawn to the first 200 from /api/health (SQLite, ${TOTAL_LEADS.toLocaleString('en-US')} leads), ` +
        `median of ${starts} (min–max):`,
    );
    for (const [i, v] of variants.entries())
      console.log(
        `  ${v.name.padEnd(44)} ${median(startMs[i]!).toFixed(0).padStart(5)} ms  (${Math.min(...startMs[i]!).toFixed(0)}–${Math.max(...startMs[i]!).toFixed(0)})`,
      );

    console.log(
      `\nGET /api/Admin/leads as an employee (${OWN_LEADS} leads), autocannon ${CONNECTIONS} connections × ${DURATION} s, ` +
        `${ROUNDS} alternating rounds, each server warmed with one 2 s run first:`,
    );
    const results: Result[][] = variants.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of round % 2 ? [1, 0] : [0, 1]) {
        const port = await freePort();
        const { child } = await startVariant(variants[v]!, dataDir, port);
        try {
          const url = `http://127.0.0.1:${port}/api/Admin/leads`;
          const warm = spawnSync(
            process.execPath,
            [
              autocannonCli,
              '-j',
              '-c',
              String(CONNECTIONS),
              '-d',
              '2',
              '-H',
              `authorization=${headers.authorization}`,
              url,
            ],
            { maxBuffer: 1 << 24 },
          );
          if (warm.status !== 0) throw new Error('warm-up run failed');
          results[v]!.push(await load(url, headers));
        } finally {
          await stopChild(child);
        }
      }
    }
    for (const [i, v] of variants.entries()) console.log(line(v.name, merged(results[i]!)));
    const ratio = merged(results[0]!).requests.average / merged(results[1]!).requests.average;
    console.log(`  compiled / tsx: ${ratio.toFixed(2)}× the requests per second`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (args['compare-build']) {
  await compareBuild();
  process.exit(0);
}

const t = await createTestApp({ SEED_ADMIN: 'false' });
const { app } = t;
const database: Pick<Db, 'db' | 'dialect'> = { db: app.deps.db, dialect: app.deps.dialect };
const bare = Fastify({ logger: false });
try {
  const admin = await createFirstAdmin(app);
  const employee = await createAccount(app, admin, Role.Employee);
  const colleague = await createAccount(app, admin, Role.Employee);
  await seed(database, admin.id, employee.id, colleague.id);

  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const listUrl = `${appUrl}/api/Admin/leads`;
  const headers = { authorization: `Bearer ${employee.token}` };
  const check = await fetch(listUrl, { headers: { ...headers, 'accept-encoding': 'identity' } });
  const payload = await check.text();
  const count = (JSON.parse(payload) as unknown[]).length;
  if (check.status !== 200 || count !== OWN_LEADS)
    throw new Error(`expected ${OWN_LEADS} leads, got ${count}`);
  const etag = check.headers.get('etag');
  if (!etag) throw new Error('the list answered no ETag');

  // What a browser gets: a compressed answer, and a 304 for a refresh with nothing changed.
  console.log(`Database: ${app.deps.dialect}, ${TOTAL_LEADS.toLocaleString('en-US')} leads.`);
  for (const encoding of ['gzip', 'br']) {
    const res = await fetch(listUrl, { headers: { ...headers, 'accept-encoding': encoding } });
    const body = Buffer.from(await res.arrayBuffer());
    console.log(
      `Accept-Encoding: ${encoding} → ${res.status}, Content-Encoding: ${res.headers.get('content-encoding')}, ` +
        `ETag ${res.headers.get('etag') === etag ? 'same' : 'DIFFERENT'} (fetch decodes: ${(body.length / 1024).toFixed(0)} KB)`,
    );
  }
  const revalidate = await fetch(listUrl, { headers: { ...headers, 'if-none-match': etag } });
  console.log(`If-None-Match: ${etag} → ${revalidate.status}, ${(await revalidate.text()).length} bytes`);

  // The floor: the answer's bytes ready in memory, nothing else.
  const bytes = Buffer.from(payload);
  bare.get('/leads', (_request, reply) => reply.type('application/json; charset=utf-8').send(bytes));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  console.log(
    `\nGET /api/Admin/leads as an employee: ${count} leads, ${(payload.length / 1024).toFixed(0)} KB JSON; ` +
      `autocannon ${CONNECTIONS} connections × ${DURATION} s on loopback, in its own process, ` +
      `(a) and (b) in ${ROUNDS} alternating rounds.`,
  );
  // Rounds alternate which goes first, so a neighbour's burst on the shared cores lands on both.
  const real: Result[] = [];
  const floor: Result[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const a = () => profiled(`api-list-${round + 1}`, () => load(listUrl, headers));
    const b = () => profiled(`api-bare-${round + 1}`, () => load(`${bareUrl}/leads`));
    if (round % 2 === 0) {
      real.push(await a());
      floor.push(await b());
    } else {
      floor.push(await b());
      real.push(await a());
    }
  }
  console.log(line('(a) LeadNest GET /api/Admin/leads', merged(real)));
  console.log(line('(b) bare Fastify, same JSON from memory', merged(floor)));
  const ratio = merged(real).requests.average / merged(floor).requests.average;
  console.log(`  ratio a/b: ${ratio.toFixed(2)} (target ≥ 0.70) ${ratio >= 0.7 ? 'met' : 'NOT met'}`);
  const notModified = await load(listUrl, { ...headers, 'if-none-match': etag });
  console.log(line('(c) LeadNest, If-None-Match → 304', notModified));
  for (const [name, encoding] of [
    ['(d)', 'gzip'],
    ['(e)', 'br'],
  ] as const) {
    const compressed = await load(listUrl, { ...headers, 'accept-encoding': encoding });
    console.log(line(`${name} LeadNest, Accept-Encoding: ${encoding}`, compressed));
  }

  await printQueryPlans(database, employee.id);
} finally {
  await bare.close();
  await t.close();
}
