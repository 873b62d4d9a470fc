import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Db, openDatabase } from '../../../server/db/database';

// SQLite's bulk writes (an import): the commit no longer copies the write from the WAL into the
// database file; a thread of its own does that from the next turn of the event loop, after the
// caller answered.

let dir: string;
let database: Db;

function open(): { sqlite: NonNullable<Db['sqlite']>; file: string } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-bulk-'));
  const file = path.join(dir, 'leadnest.sqlite');
  database = openDatabase({ kind: 'sqlite', file });
  const sqlite = database.sqlite!;
  sqlite.exec('create table items (id integer primary key, body text not null)');
  return { sqlite, file };
}

/** About 6 MB in one transaction: well past the 1,000-page (4 MB) checkpoint mark. */
function writeMany(sqlite: NonNullable<Db['sqlite']>): void {
  const insert = sqlite.prepare('insert into items (body) values (?)');
  sqlite.transaction(() => {
    for (let i = 0; i < 6000; i++) insert.run(`${i}`.padEnd(1000, 'x'));
  })();
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sizeOf = (file: string) => fs.statSync(file).size;

afterEach(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('SQLite bulkWrite', () => {
  it('without it, the commit itself copies a large write into the database file', () => {
    const { sqlite, file } = open();
    writeMany(sqlite);
    expect(sizeOf(file)).toBeGreaterThan(5_000_000);
  });

  it('answers before the copy, which a thread of its own makes afterwards; the usual mark is back', async () => {
    const { sqlite, file } = open();
    const before = sizeOf(file);

    const answer = await database.bulkWrite(async () => {
      writeMany(sqlite);
      return 'done';
    });

    expect(answer).toBe('done');
    // Committed (another connection would read it from the WAL) but not yet copied.
    expect(sizeOf(file)).toBe(before);
    expect(sqlite.prepare('select count(*) from items').pluck().get()).toBe(6000);
    await vi.waitFor(() => expect(sizeOf(file)).toBeGreaterThan(5_000_000), { timeout: 10_000 });
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('puts the mark back when the write fails, and passes the failure on', async () => {
    const { sqlite } = open();
    await expect(
      database.bulkWrite(async () => {
        throw new Error('the spreadsheet was damaged');
      }),
    ).rejects.toThrow('the spreadsheet was damaged');
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('makes the copy on another thread, while this one is busy', async () => {
    const { sqlite, file } = open();
    const before = sizeOf(file);
    await database.bulkWrite(async () => writeMany(sqlite));
    // Queued after bulkWrite's own next-turn step. Made on this thread, the copy would be done
    // by now and could not happen during the busy loop below.
    const grew = await new Promise<{ atStart: number; during: boolean }>((resolve) =>
      setImmediate(() => {
        const atStart = sizeOf(file);
        const until = Date.now() + 10_000;
        while (sizeOf(file) <= 5_000_000 && Date.now() < until) {
          // Busy: no event of this thread runs meanwhile.
        }
        resolve({ atStart, during: sizeOf(file) > 5_000_000 });
      }),
    );
    expect(grew).toEqual({ atStart: before, during: true });
  });

  it('does not fail when the database closes before the copy', async () => {
    open();
    await database.bulkWrite(async () => writeMany(database.sqlite!));
    // Closed at once, as an app shutting down right after an import would.
    await database.close();
    await nextTurn();
    // Reopened, the data is all there (opening recovers from the WAL).
    database = openDatabase({ kind: 'sqlite', file: path.join(dir, 'leadnest.sqlite') });
    expect(database.sqlite!.prepare('select count(*) from items').pluck().get()).toBe(6000);
  });
});
