// `npm run bench:api` (issue 7): what the API costs over bare Fastify. In one process it starts the
// real app on a temp SQLite file, seeds an employee holding 200 leads (plus 5,000 leads of others),
// then loads, one after the other with autocannon on loopback, (a) the employee's
// GET /api/Admin/leads and (b) a bare Fastify route answering the same JSON from memory, and
// prints requests/s, p99 and the ratio a/b (target ≥ 0.7). Then the query plans of the list query.
// autocannon runs as a child process so the load generator does not share the servers' CPU.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Result } from 'autocannon';
import Fastify from 'fastify';
import { Role } from '../contract/roles';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { createAccount, createFirstAdmin } from '../tests/helpers/test-server';
import { printListQueryPlans } from './query-plans';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const OWN_LEADS = 200;
const OTHER_LEADS = 5000;

const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

function load(url: string, headers: Record<string, string> = {}): Promise<Result> {
  const args = [autocannonCli, '-j', '-c', String(CONNECTIONS), '-d', String(DURATION)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...args, url], { maxBuffer: 1 << 24 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as Result),
    );
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-bench-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  STATIC_DIR: 'none',
  LOG_LEVEL: 'silent',
  SEED_ADMIN: 'false',
});
const database = openDatabase(config.database);
const app = await buildApp(config, { logger: false, database });
const bare = Fastify({ logger: false });
try {
  const admin = await createFirstAdmin(app);
  const employee = await createAccount(app, admin, Role.Employee);
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
    created_by: admin.id,
    deleted_at: null,
  });
  const rows = [
    ...Array.from({ length: OWN_LEADS }, (_, i) => lead(i, employee.id)),
    ...Array.from({ length: OTHER_LEADS }, (_, i) => lead(OWN_LEADS + i, i % 2 ? admin.id : null)),
  ];
  for (let i = 0; i < rows.length; i += 500) {
    await database.db
      .insertInto('leads')
      .values(rows.slice(i, i + 500))
      .execute();
  }

  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const headers = { authorization: `Bearer ${employee.token}` };
  const check = await fetch(`${appUrl}/api/Admin/leads`, { headers });
  const payload = await check.text();
  const count = (JSON.parse(payload) as unknown[]).length;
  if (check.status !== 200 || count !== OWN_LEADS)
    throw new Error(`expected ${OWN_LEADS} leads, got ${count}`);

  bare.get('/leads', (_request, reply) => reply.type('application/json').send(payload));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  console.log(
    `GET /api/Admin/leads as an employee: ${count} leads, ${(payload.length / 1024).toFixed(0)} KB JSON; ` +
      `autocannon ${CONNECTIONS} connections × ${DURATION} s each on loopback, in its own process.`,
  );
  const real = await load(`${appUrl}/api/Admin/leads`, headers);
  const floor = await load(`${bareUrl}/leads`);
  const line = (name: string, r: Result) =>
    `  ${name.padEnd(34)} ${r.requests.average.toFixed(0).padStart(7)} req/s  p99 ${String(r.latency.p99).padStart(4)} ms  ` +
    `errors ${r.errors}  non-2xx ${r.non2xx}`;
  console.log(line('(a) LeadNest GET /api/Admin/leads', real));
  console.log(line('(b) bare Fastify, same JSON', floor));
  const ratio = real.requests.average / floor.requests.average;
  console.log(`  ratio a/b: ${ratio.toFixed(2)} (target ≥ 0.70) ${ratio >= 0.7 ? 'met' : 'NOT met'}`);

  await printListQueryPlans(database, employee.id);
} finally {
  await bare.close();
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
