import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import type { NewLead } from '../server/db/schema';
import { createLeadsRepository } from '../server/repositories/leads.repository';

// `npx tsx bench/sync-import-cost.ts [--rows 100000] [--runs 4]`: what the delta refresh's change
// triggers (migration 0401) cost the import's insert, on SQLite. The same insert path as the
// import (the repository's insertMany in one transaction), into a database with the triggers and
// one with them dropped, runs alternating so both see the same machine load; medians and ratio.

const { values: args } = parseArgs({
  options: { rows: { type: 'string', default: '100000' }, runs: { type: 'string', default: '4' } },
});
const rows = Number(args.rows);
const runs = Number(args.runs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function leads(run: number): NewLead[] {
  const now = new Date().toISOString();
  return Array.from({ length: rows }, (_, i) => ({
    name: `Lead ${i}`,
    email: `lead${i}@example.com`,
    phone: `${7 + (run % 3)}${String(run * rows + i).padStart(9, '0')}`,
    visit_date_time: null,
    configuration: '2 BHK',
    site_visit: 'Riverside Towers',
    location: 'Andheri',
    interested_in: '',
    assigned_to_id: 1 + (i % 10),
    assigned_date: now,
    created_at: now,
    created_by: null,
    deleted_at: null,
  }));
}

async function open(withTriggers: boolean) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-sync-cost-'));
  const database = openDatabase({ kind: 'sqlite', file: path.join(dir, 'leadnest.sqlite') });
  await migrateToLatest(database.db as never, 'sqlite');
  if (!withTriggers) {
    const names = await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(
      database.db,
    );
    for (const { name } of names.rows) await sql.raw(`drop trigger ${name}`).execute(database.db);
  }
  // Ten employees to assign the leads to, as an import with auto-assign does.
  for (let i = 1; i <= 10; i++) {
    await database.db
      .insertInto('users')
      .values({
        email: `e${i}@example.com`,
        password_hash: 'x',
        contact: null,
        aadhaar_enc: null,
        aadhaar_hash: null,
        aadhaar_last4: null,
        role_id: 3,
        created_at: new Date().toISOString(),
      })
      .execute();
  }
  const repo = createLeadsRepository(database.db, database.sqlite);
  return {
    async insert(batch: NewLead[]): Promise<number> {
      const t0 = performance.now();
      await database.db.transaction().execute((trx) => repo.insertMany(batch, trx));
      return performance.now() - t0;
    },
    async close() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const without = await open(false);
const withTriggers = await open(true);
const times = { without: [] as number[], with: [] as number[] };
for (let run = 0; run < runs; run++) {
  const batch = leads(run);
  // Which goes first alternates too: the second of a pair ran slower whatever it was.
  if (run % 2 === 0) {
    times.without.push(await without.insert(batch));
    times.with.push(await withTriggers.insert(batch));
  } else {
    times.with.push(await withTriggers.insert(batch));
    times.without.push(await without.insert(batch));
  }
}
await without.close();
await withTriggers.close();
const perRow = (ms: number) => ((ms * 1000) / rows).toFixed(2);
const a = median(times.without);
const b = median(times.with);
console.log(
  `Insert of ${rows.toLocaleString('en-US')} leads in one transaction (import path), SQLite, ${runs} runs alternating:`,
);
console.log(
  `  without change triggers: ${a.toFixed(0)} ms (${perRow(a)} µs/row)  runs ${times.without.map((t) => t.toFixed(0)).join(', ')}`,
);
console.log(
  `  with change triggers:    ${b.toFixed(0)} ms (${perRow(b)} µs/row)  runs ${times.with.map((t) => t.toFixed(0)).join(', ')}`,
);
console.log(`  cost: +${(b - a).toFixed(0)} ms, ×${(b / a).toFixed(2)}`);
