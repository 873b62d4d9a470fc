import crypto from 'node:crypto';
import type { SyncOp, SyncResult } from '../../../contract/sync-batch';
import type { App } from '../../../server/app';
import { buildApp } from '../../../server/app';
import { openDatabase } from '../../../server/db/database';
import { type Account, bearer, type TestApp } from '../../helpers/test-server';

export async function insertLead(app: App, owner: Account | null, name?: string): Promise<number> {
  const row = await app.deps.db
    .insertInto('leads')
    .values({
      name: name ?? `Lead ${crypto.randomBytes(3).toString('hex')}`,
      email: '',
      phone: `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`,
      visit_date_time: null,
      configuration: '2 BHK',
      site_visit: 'Riverside Towers',
      location: 'Andheri',
      interested_in: '',
      created_by: null,
      assigned_to_id: owner?.id ?? null,
      assigned_date: owner ? new Date().toISOString() : null,
      created_at: new Date().toISOString(),
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function optionIds(app: App) {
  const find = async (table: 'call_statuses' | 'client_statuses', name: string) =>
    (await app.deps.options.list(table)).find((o) => o.name === name)!.id;
  return {
    connected: await find('call_statuses', 'Connected'),
    interested: await find('client_statuses', 'Interested'),
    siteVisit: await find('client_statuses', 'Site Visit'),
    booking: await find('client_statuses', 'Booking'),
  };
}

export async function postBatch(app: App, account: Account, ops: SyncOp[]) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/sync',
    payload: { ops },
    headers: bearer(account),
  });
  return { statusCode: res.statusCode, json: () => res.json() as { results: SyncResult[] }, raw: res };
}

/** A second API node on the same database (its own connection or pool), as a load balancer would see. */
export async function secondNode(t: TestApp): Promise<{ app: App; close(): Promise<void> }> {
  const database = openDatabase(t.config.database);
  const app = await buildApp(t.config, { logger: false, database });
  return {
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export const key = () => crypto.randomUUID();

export async function noteCount(app: App, leadId: number): Promise<number> {
  return (await app.deps.db.selectFrom('lead_notes').select('id').where('lead_id', '=', leadId).execute())
    .length;
}
