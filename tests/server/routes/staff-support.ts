import crypto from 'node:crypto';
import type { App } from '../../../server/app';
import type { Account } from '../../helpers/test-server';

/** A lead straight in the table: these tests are about who holds leads, not about adding them. */
export async function insertLead(
  app: App,
  holder: Account | { id: number } | null,
  overrides: { deleted?: boolean; siteVisit?: string; createdAt?: string } = {},
): Promise<number> {
  const row = await app.deps.db
    .insertInto('leads')
    .values({
      name: `Lead ${crypto.randomBytes(3).toString('hex')}`,
      email: '',
      phone: `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`,
      visit_date_time: null,
      configuration: '2 BHK',
      site_visit: overrides.siteVisit ?? 'Riverside Towers',
      location: 'Andheri',
      interested_in: '',
      created_by: null,
      assigned_to_id: holder?.id ?? null,
      assigned_date: holder ? new Date().toISOString() : null,
      created_at: overrides.createdAt ?? new Date().toISOString(),
      deleted_at: overrides.deleted ? new Date().toISOString() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The option id of a client or call status by name (seeded on start). */
export async function optionId(app: App, table: 'client_statuses' | 'call_statuses', name: string) {
  const row = await app.deps.db
    .selectFrom(table)
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}
