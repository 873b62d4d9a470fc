import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NewLead } from '../../../server/db/schema';
import { type Account, createFirstAdmin, createTestApp, type TestApp } from '../../helpers/test-server';

// The import's bulk insert (LeadsRepository.insertMany) inside a transaction, on the real
// database: which phones it reports inserted is what the upload's Inserted/Skipped counts and
// its rejected-rows file are built from.

let t: TestApp;
let admin: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.app.deps.db.deleteFrom('leads').execute();
});

const now = '2026-11-24T10:00:00.000Z';
const phoneOf = (i: number) => String(8_000_000_000 + i);

function lead(i: number): NewLead {
  return {
    name: `Buyer ${i}`,
    email: `buyer${i}@example.com`,
    phone: phoneOf(i),
    visit_date_time: null,
    configuration: '2 BHK',
    site_visit: 'Expo',
    location: 'Baner',
    interested_in: '2 BHK',
    assigned_to_id: null,
    assigned_date: null,
    created_at: now,
    created_by: admin.id,
  };
}

async function insert(leads: NewLead[]): Promise<Set<string>> {
  const { db, leadsRepository } = t.app.deps;
  return db.transaction().execute((trx) => leadsRepository.insertMany(leads, trx));
}

async function livePhones(): Promise<string[]> {
  const rows = await t.app.deps.db.selectFrom('leads').select('phone').orderBy('phone').execute();
  return rows.map((r) => r.phone);
}

describe('LeadsRepository.insertMany in a transaction', () => {
  it('inserts every lead and reports every phone', async () => {
    const leads = Array.from({ length: 237 }, (_, i) => lead(i));
    const inserted = await insert(leads);
    expect(inserted.size).toBe(237);
    expect([...inserted].sort()).toEqual(leads.map((l) => l.phone).sort());
    expect(await livePhones()).toEqual(leads.map((l) => l.phone).sort());
  });

  it('skips phones a live lead already holds, in any batch, and reports only the rest', async () => {
    // Taken beforehand: near the start, the middle and the very end of the list.
    const taken = [5, 150, 203, 236];
    await insert(taken.map(lead));
    const leads = Array.from({ length: 237 }, (_, i) => lead(i));

    const inserted = await insert(leads);

    expect(inserted.size).toBe(237 - taken.length);
    for (const i of taken) expect(inserted.has(phoneOf(i))).toBe(false);
    expect(inserted.has(phoneOf(4))).toBe(true);
    expect(inserted.has(phoneOf(204))).toBe(true);
    const phones = await livePhones();
    expect(phones).toHaveLength(237);
    expect(new Set(phones).size).toBe(237);
  });
});
