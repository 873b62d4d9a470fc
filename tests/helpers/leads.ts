import crypto from 'node:crypto';
import type { App } from '../../server/app';
import type { Account } from './test-server';

/** A lead straight in the table, for tests about what happens to leads rather than adding them. */
export async function insertLead(
  app: App,
  owner: Account | null,
  overrides: { name?: string; deleted?: boolean } = {},
): Promise<{ id: number; name: string; phone: string }> {
  const name = overrides.name ?? `Lead ${crypto.randomBytes(3).toString('hex')}`;
  const phone = `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`;
  const row = await app.deps.db
    .insertInto('leads')
    .values({
      name,
      email: '',
      phone,
      visit_date_time: null,
      configuration: '2 BHK',
      site_visit: 'Riverside Towers',
      location: 'Andheri',
      interested_in: '',
      created_by: null,
      assigned_to_id: owner?.id ?? null,
      assigned_date: owner ? new Date().toISOString() : null,
      created_at: new Date().toISOString(),
      deleted_at: overrides.deleted ? new Date().toISOString() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, name, phone };
}
