// `npm run bench:export [-- --pg [url]] [--leads 100000] [--slow]` (issue 17): GET
// /api/Admin/leads/export over a real port for every lead (100,000 by default, with 60,000 status
// records, 200,000 notes and 20,000 reminders), on a fresh SQLite file or a fresh PostgreSQL
// schema with --pg, downloaded by curl. Prints the time to the last byte, the file's size, the
// server process's RSS before and at its peak while the file streams (sampled every 5 ms), and the
// most JS heap + buffers it retained (after a collection, every 250 ms); --slow has curl read at
// 2 MB/s, as a phone on a poor connection would, to show the file is not queued in memory.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as XLSX from '@e965/xlsx';
import { CompiledQuery } from 'kysely';
import { createFirstAdmin, startTestServer } from '../tests/helpers/test-server';
import { DAY, iso, seededRandom, seedLeadBook, withPgDefault } from './seed-team';

const { values: args } = parseArgs({
  options: {
    pg: { type: 'string' },
    leads: { type: 'string', default: '100000' },
    slow: { type: 'boolean', default: false },
  },
  args: withPgDefault(process.argv.slice(2)),
});
const pgUrl = args.pg ?? process.env.TEST_DATABASE_URL;
if (pgUrl) process.env.TEST_DATABASE_URL = pgUrl;
const LEADS = Number(args.leads);
const STATUSES = Math.round(LEADS * 0.6);
const NOTES = LEADS * 2;
const REMINDERS = Math.round(LEADS / 5);
const EMPLOYEES = 50;
const MB = 1024 * 1024;

const rand = seededRandom();

const server = await startTestServer();
const { db, dialect } = server.app.deps;
const admin = await createFirstAdmin(server.app);
const now = Date.now();
const seeded = Date.now();
await seedLeadBook(db, rand, now, {
  leads: LEADS,
  employees: EMPLOYEES,
  statuses: STATUSES,
  notes: NOTES,
  reminders: REMINDERS,
  // One name in a thousand looks like a formula: the export must write it as text.
  lead: (i, created) => ({
    name: i % 1000 === 0 ? `=HYPERLINK("x","Lead ${i}")` : `Lead ${i} Sharma`,
    email: `lead${i}@example.com`,
    visit_date_time: i % 3 === 0 ? iso(created + 5 * DAY) : null,
    interested_in: '2 BHK',
  }),
  noteText: 'Called, will think about it and call back after talking to the family',
  reminderNote: 'Call back',
});
await db.executeQuery(CompiledQuery.raw('analyze'));
console.log(
  `${dialect}: seeded ${LEADS} leads, ${STATUSES} status records, ${NOTES} notes, ${REMINDERS} reminders ` +
    `in ${((Date.now() - seeded) / 1000).toFixed(1)} s`,
);

/** One download; `keep` holds the file's bytes (for the check), else they are only counted. */
async function exportOnce(
  keep = false,
  retainedToo = false,
): Promise<{ ms: number; size: number; bytes: Buffer; before: number; peak: number; heldGrowth: number }> {
  global.gc?.();
  const held = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const before = process.memoryUsage().rss;
  const heldBefore = held();
  let peak = before;
  let heldPeak = heldBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  // What the export really holds: the heap right after a collection, four times a second (the
  // heap between collections is mostly garbage, which says nothing about what is kept).
  const retained = setInterval(() => {
    if (!retainedToo) return;
    global.gc?.();
    heldPeak = Math.max(heldPeak, held());
  }, 250);
  // The client is curl in its own process, so the RSS here is the server's alone.
  const file = path.join(os.tmpdir(), `leadnest-export-${process.pid}.xlsx`);
  const started = performance.now();
  const curl = spawn('curl', [
    '--silent',
    '--show-error',
    '--fail',
    ...(args.slow ? ['--limit-rate', '2M'] : []),
    '--header',
    `Authorization: Bearer ${admin.token}`,
    '--output',
    file,
    `${server.url}/api/Admin/leads/export?format=xlsx`,
  ]);
  const [code] = (await once(curl, 'exit')) as [number];
  if (code !== 0) throw new Error(`curl exited ${code}`);
  const bytes = keep ? fs.readFileSync(file) : Buffer.alloc(0);
  const size = fs.statSync(file).size;
  fs.rmSync(file);
  const ms = performance.now() - started;
  clearInterval(sampler);
  clearInterval(retained);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, size, bytes, before, peak, heldGrowth: heldPeak - heldBefore };
}

// One warm-up (code paths, statement cache), three timed runs, then one run that also collects
// garbage four times a second to see what is retained (it slows the run, so it is not timed).
await exportOnce();
const runs = [];
for (let i = 0; i < 3; i++) runs.push(await exportOnce());
const memory = await exportOnce(false, true);
// This one keeps the file to check it with another library (SheetJS).
const file = (await exportOnce(true)).bytes;
const book = XLSX.read(file, { type: 'buffer', dense: true });
const rows = XLSX.utils.sheet_to_json(book.Sheets.Leads!, { header: 1 }).length - 1;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
console.log(
  `${dialect}${args.slow ? ' (client reading 2 MB/s)' : ''}: ${rows} rows, ${(file.length / MB).toFixed(1)} MB file`,
);
for (const [i, r] of runs.entries()) {
  console.log(
    `  run ${i + 1}: ${(r.ms / 1000).toFixed(2)} s to the last byte; RSS ${mb(r.before)} before, ` +
      `peak ${mb(r.peak)} (+${mb(r.peak - r.before)})`,
  );
}
console.log(
  `  memory run: RSS ${mb(memory.before)} before, peak ${mb(memory.peak)} (+${mb(memory.peak - memory.before)}); ` +
    `retained JS heap + buffers at most +${mb(memory.heldGrowth)}`,
);
if (rows !== LEADS) throw new Error(`expected ${LEADS} rows, read ${rows}`);
await server.close();
