// `npm run bench:manager [-- --pg [url]] [--runs 15]` (issue 17): GET /api/Manager/activity over
// 100,000 leads and 500,000 notes (50 employees, 60,000 status records, 160,000 status changes,
// 20,000 reminders) on a fresh SQLite file, or a fresh PostgreSQL schema with --pg. Prints the
// answer time of the real route (app.inject, median and worst of --runs) for today, 7 and 30
// days, and the query plan of each aggregate. Goal: under 200 ms.
import { parseArgs } from 'node:util';
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { createManagerRepository } from '../server/repositories/manager.repository';
import { createFirstAdmin, createTestApp } from '../tests/helpers/test-server';
import { DAY, inBatches, iso, seededRandom, seedLeadBook, withPgDefault } from './seed-team';

const { values: args } = parseArgs({
  options: { pg: { type: 'string' }, runs: { type: 'string', default: '15' } },
  args: withPgDefault(process.argv.slice(2)),
});
const pgUrl = args.pg ?? process.env.TEST_DATABASE_URL;
if (pgUrl) process.env.TEST_DATABASE_URL = pgUrl;
const RUNS = Number(args.runs);
const LEADS = 100_000;
const NOTES = 500_000;
const EMPLOYEES = 50;

const rand = seededRandom();

const t = await createTestApp();
const { db, dialect } = t.app.deps;
const admin = await createFirstAdmin(t.app);
const now = Date.now();
const seeded = Date.now();
await seedLeadBook(db, rand, now, {
  leads: LEADS,
  employees: EMPLOYEES,
  statuses: 60_000,
  notes: NOTES,
  reminders: 20_000,
  lead: (i) => ({ name: `Lead ${i}`, email: '', visit_date_time: null, interested_in: '' }),
  noteText: 'Called, will think about it',
  reminderNote: '',
  // The funnel's "reached" counts read every status change, not only the current status.
  afterStatuses: (trx, { leadAt, employees, statuses }) =>
    inBatches(
      100_000,
      1000,
      () => ({
        lead_id: leadAt(rand(60_000)),
        from_status_id: null,
        to_status_id: statuses[rand(statuses.length)]!.id,
        changed_by: employees[rand(EMPLOYEES)]!.email,
        changed_at: iso(now - rand(365 * DAY)),
      }),
      (batch) => trx.insertInto('lead_status_changes').values(batch).execute(),
    ),
});
await db.executeQuery(CompiledQuery.raw('analyze'));
console.log(
  `${dialect}: seeded ${LEADS} leads, ${NOTES} notes in ${((Date.now() - seeded) / 1000).toFixed(1)} s`,
);

const periods: [string, number][] = [
  ['today', (now - new Date(now).setHours(0, 0, 0, 0)) / DAY],
  ['7 days', 7],
  ['30 days', 30],
];
for (const [label, days] of periods) {
  const url = `/api/Manager/activity?from=${encodeURIComponent(iso(now - days * DAY))}&to=${encodeURIComponent(iso(Date.now() + DAY))}`;
  const times: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const start = performance.now();
    const res = await t.app.inject({ url, headers: { authorization: `Bearer ${admin.token}` } });
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    if (i >= 2) times.push(performance.now() - start); // two warm-up calls
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `GET /api/Manager/activity, ${label.padEnd(8)} median ${median.toFixed(1)} ms, worst ${times.at(-1)!.toFixed(1)} ms (${RUNS} runs)`,
  );
}

// Each aggregate on its own, 30 days.
{
  const repo = createManagerRepository(db);
  const w = { from: iso(now - 30 * DAY), to: iso(now + DAY), now: iso(now), weekAgo: iso(now - 7 * DAY) };
  const parts: [string, () => Promise<unknown>][] = [
    ['notes by author', () => repo.notesByAuthor(w)],
    ['moves by author', () => repo.movesByAuthor(w, 2, 3)],
    ['leads by holder and status', () => repo.leadsByHolderAndStatus(w)],
    ['overdue follow-ups', () => repo.overdueByEmployee(w)],
    ['reached by status', () => repo.reachedByStatus(w)],
    ['campaigns', () => repo.campaigns(w, 3)],
  ];
  for (const [label, run] of parts) {
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const start = performance.now();
      await run();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    console.log(`  ${label.padEnd(28)} median ${times[3]!.toFixed(1)} ms`);
  }
}

// The plan of each aggregate, from the SQL the repository sends.
const seen: RootOperationNode[] = [];
const recorder: KyselyPlugin = {
  transformQuery: ({ node }) => {
    seen.push(node);
    return node;
  },
  transformResult: async ({ result }) => result,
};
const recorded = db.withPlugin(recorder);
const repo = createManagerRepository(recorded as typeof db);
const w = { from: iso(now - 30 * DAY), to: iso(now + DAY), now: iso(now), weekAgo: iso(now - 7 * DAY) };
await repo.notesByAuthor(w);
await repo.movesByAuthor(w, 2, 3);
await repo.leadsByHolderAndStatus(w);
await repo.overdueByEmployee(w);
await repo.reachedByStatus(w);
await repo.campaigns(w, 3);
const explain = dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
for (const node of seen) {
  const query = db.getExecutor().compileQuery(node, { queryId: 'plan' } as never);
  const answer = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(explain + query.sql, [...query.parameters]),
  );
  console.log(`\n${query.sql.replace(/\s+/g, ' ').trim()}`);
  for (const row of answer.rows) console.log(`    ${row.detail ?? row['QUERY PLAN']}`);
}
await t.close();
