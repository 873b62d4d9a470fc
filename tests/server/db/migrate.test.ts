import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../server/config';
import { type Db, openDatabase } from '../../../server/db/database';
import { migrateToLatest } from '../../../server/db/migrate';

// Several databases side by side: on PostgreSQL, schemas of one database (as parallel test files
// and agencies sharing a server use it); on SQLite, files in one folder.
const pgUrl = process.env.TEST_DATABASE_URL;
const opened: Db[] = [];
const cleanups: (() => Promise<void>)[] = [];

async function freshDatabase(): Promise<Db> {
  let config: Config['database'];
  if (pgUrl) {
    const schema = `m_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    });
    config = { kind: 'postgres', url: pgUrl, schema };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-migrate-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    config = { kind: 'sqlite', file: path.join(dir, 'leadnest.sqlite') };
  }
  const database = openDatabase(config);
  opened.push(database);
  return database;
}

afterAll(async () => {
  for (const database of opened) await database.close();
  for (const cleanup of cleanups) await cleanup();
});

const leadCount = async (database: Db) =>
  Number((await sql<{ n: number }>`select count(*) as n from leads`.execute(database.db)).rows[0]?.n);

describe('migrations', () => {
  it('build a second database beside one already migrated, each with its own tables', async () => {
    const first = await freshDatabase();
    await migrateToLatest(first.db as never, first.dialect);
    await sql`insert into leads (name, phone, created_at) values ('Only in first', '9876543210', ${new Date().toISOString()})`.execute(
      first.db,
    );
    const second = await freshDatabase();
    await migrateToLatest(second.db as never, second.dialect);
    expect(await leadCount(first)).toBe(1);
    expect(await leadCount(second)).toBe(0);
  });

  it('run again as a no-op on a migrated database', async () => {
    const database = await freshDatabase();
    await migrateToLatest(database.db as never, database.dialect);
    await migrateToLatest(database.db as never, database.dialect);
    expect(await leadCount(database)).toBe(0);
  });
});
