import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import {
  ADMIN,
  call,
  createStore,
  login,
  registerEmployee,
  startServerProcess,
  upload,
} from '../tests/server/faults/support/server-process';
import { leadRows, toWorkbook } from './lead-sheets';

// `npm run bench:load [-- --seconds 10]` (issue 6, Load): the real server process (tsx
// server/main.ts, API only) on a fresh SQLite data dir — or PostgreSQL with TEST_DATABASE_URL
// set — under mixed traffic from autocannon on loopback, all at once for a bounded time:
//   employees  each reading their own leads and posting call notes (20 employees, 250 leads each)
//   admins     reading the dashboard stats
//   flood      failed sign-ins for one account, as a password-guessing script would send them
// Pass: employees and admins see zero errors and zero non-2xx answers; the flood is answered 429
// (never 5xx). Prints requests/s and latency per stream; exits 1 when a pass condition fails.

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: process.env.LOAD_SECONDS ?? '30' },
    employees: { type: 'string', default: '20' },
    connections: { type: 'string', default: '20' },
  },
});
const SECONDS = Number(args.seconds);
const EMPLOYEES = Number(args.employees);
const LEADS_PER_EMPLOYEE = 250;

interface LoadResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
interface LoadRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: LoadRequest) => LoadRequest;
}
type Run = (
  options: {
    url: string;
    connections: number;
    duration: number;
    requests: LoadRequest[];
  },
  done: (error: Error | null, result: LoadResult) => void,
) => unknown;
// bench/autocannon.d.ts declares only what the other benchmarks use.
const run = autocannon as unknown as Run;

function load(url: string, connections: number, requests: LoadRequest[]): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    run({ url, connections, duration: SECONDS, requests }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

const store = await createStore();
const server = await startServerProcess(store, { LOG_LEVEL: 'warn' });
try {
  console.log(`seeding: ${EMPLOYEES} employees, ${EMPLOYEES * LEADS_PER_EMPLOYEE} leads (${store.kind})`);
  const admin = await login(server.url, ADMIN.email, ADMIN.password);
  const employees: { token: string; leadIds: number[] }[] = [];
  for (let i = 0; i < EMPLOYEES; i++)
    employees.push({ ...(await registerEmployee(server.url, admin)), leadIds: [] });
  const sheet = toWorkbook(leadRows(EMPLOYEES * LEADS_PER_EMPLOYEE, { phoneBase: 7_050_000_000 }));
  const imported = await upload(server.url, admin, sheet);
  if (imported.status !== 200) throw new Error(`seeding import failed: ${imported.status}`);
  for (const e of employees) {
    e.leadIds = (await call(server.url, e.token, 'GET', '/api/Admin/leads'))
      .json<{ leadID: number }[]>()
      .map((l) => l.leadID);
  }
  const option = async (path: string, key: string) =>
    (await call(server.url, admin, 'GET', `/api/LeadStatus/${path}`)).json<Record<string, number>[]>()[0]![
      key
    ]!;
  const callStatusId = await option('call-statuses', 'callStatusId');
  const clientStatusId = await option('client-statuses', 'clientStatusId');
  const victim = employees[0]!;
  const victimEmail = (await call(server.url, admin, 'GET', '/api/Admin/employees')).json<
    { email: string }[]
  >()[0]!.email;

  let pick = 0;
  const anEmployee = () => employees[pick++ % employees.length]!;
  const employeeTraffic: LoadRequest[] = [
    {
      method: 'GET',
      path: '/api/Admin/leads',
      setupRequest: (r) => ({ ...r, headers: { authorization: `Bearer ${anEmployee().token}` } }),
    },
    {
      method: 'POST',
      path: '/api/LeadStatus',
      setupRequest: (r) => {
        const e = anEmployee();
        const leadId = e.leadIds[pick % e.leadIds.length];
        return {
          ...r,
          headers: { authorization: `Bearer ${e.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ leadId, notes: `Called, load test ${pick}`, callStatusId, clientStatusId }),
        };
      },
    },
  ];
  const adminTraffic: LoadRequest[] = [
    { method: 'GET', path: '/api/Admin/stats', headers: { authorization: `Bearer ${admin}` } },
  ];
  const flood: LoadRequest[] = [
    {
      method: 'POST',
      path: '/api/Registration/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: victimEmail, password: 'Guess@12345' }),
    },
  ];

  console.log(`loading for ${SECONDS} s on ${server.url} …`);
  const [emp, adm, fl] = await Promise.all([
    load(server.url, Number(args.connections), employeeTraffic),
    load(server.url, 2, adminTraffic),
    load(server.url, 4, flood),
  ]);
  // The victim can still work: the flood limits sign-ins, not an employee already signed in.
  const stillWorks = await call(server.url, victim.token, 'GET', '/api/Admin/leads');

  const codes = (r: LoadResult) =>
    Object.entries(r.statusCodeStats)
      .map(([code, s]) => `${code}×${s.count}`)
      .join(' ');
  const row = (name: string, r: LoadResult) =>
    `${name.padEnd(10)} ${String(r.requests.total).padStart(8)} ${r.requests.average.toFixed(0).padStart(8)}` +
    ` ${String(r.latency.p50).padStart(7)} ${String(r.latency.p99).padStart(7)} ${String(r.errors + r.timeouts).padStart(7)}  ${codes(r)}`;
  console.log(
    `\n${'stream'.padEnd(10)} ${'requests'.padStart(8)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)}  answers`,
  );
  console.log(row('employees', emp));
  console.log(row('admins', adm));
  console.log(row('flood', fl));
  const served = emp.requests.total + adm.requests.total;
  console.log(
    `\nemployees + admins: ${(served / SECONDS).toFixed(0)} requests/s, p99 ${Math.max(emp.latency.p99, adm.latency.p99)} ms`,
  );

  const failures: string[] = [];
  for (const [name, r] of [
    ['employees', emp],
    ['admins', adm],
  ] as const) {
    if (r.errors + r.timeouts > 0) failures.push(`${name}: ${r.errors} errors, ${r.timeouts} timeouts`);
    if (r.non2xx > 0) failures.push(`${name}: ${r.non2xx} answers that were not 2xx (${codes(r)})`);
  }
  if (!fl.statusCodeStats['429']) failures.push('flood: no 429 answers');
  if (Object.keys(fl.statusCodeStats).some((c) => c.startsWith('5')))
    failures.push(`flood: 5xx answers (${codes(fl)})`);
  if (stillWorks.status !== 200)
    failures.push(`the flooded employee's own list answered ${stillWorks.status}`);
  console.log(failures.length === 0 ? '\nPASS' : `\nFAIL\n  ${failures.join('\n  ')}`);
  process.exitCode = failures.length === 0 ? 0 : 1;
} finally {
  server.kill('SIGTERM');
  await server.exited;
  await store.drop();
}
