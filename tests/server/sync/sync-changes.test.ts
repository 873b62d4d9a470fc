import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import type { SyncChanges } from '../../../contract/sync-batch';
import type { App } from '../../../server/app';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { insertLead, key, optionIds, postBatch, secondNode } from './support';

// GET /api/sync/changes (issue 18): the delta refresh, on the database the tests run on
// (SQLite, or PostgreSQL with TEST_DATABASE_URL).

let t: TestApp;
let admin: Account;
let employee: Account;
let other: Account;
let ids: Awaited<ReturnType<typeof optionIds>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
  other = await createAccount(t.app, admin, Role.Employee);
  ids = await optionIds(t.app);
});
afterAll(() => t.close());

async function changes(account: Account, since?: string, app: App = t.app): Promise<SyncChanges> {
  const res = await app.inject({
    method: 'GET',
    url: `/api/sync/changes${since === undefined ? '' : `?since=${since}`}`,
    headers: bearer(account),
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const note = (leadId: number) => ({
  key: key(),
  kind: 'note' as const,
  body: { leadId, notes: 'Called', callStatusId: ids.connected, clientStatusId: ids.interested },
});

describe('GET /api/sync/changes', () => {
  it('answers the whole set first, then only what changed, and who lost which lead', async () => {
    const [kept, noted, edited, moved, deleted] = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => insertLead(t.app, employee, `Lead ${i}`)),
    );
    const unassigned = await insertLead(t.app, null);
    await insertLead(t.app, other);

    const first = await changes(employee);
    expect(first.full).toBe(true);
    expect(first.leads.map((l) => l.leadID).sort((a, b) => a - b)).toEqual(
      [kept, noted, edited, moved, deleted].sort((a, b) => a! - b!),
    );
    expect(first.removed).toEqual([]);
    expect(first.options?.clientStatuses.map((s) => s.clientStat)).toContain('Interested');

    const quiet = await changes(employee, first.cursor);
    expect(quiet).toEqual({ full: false, leads: [], removed: [], cursor: first.cursor });

    // Every path that changes a board: the employee's own note, the admin's edit, assign and
    // delete, and a reassignment written straight to the table (as another module's code would).
    expect((await postBatch(t.app, employee, [note(noted!)])).json().results[0]!.status).toBe(201);
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/Leads/${edited}`,
      payload: { name: 'Edited name' },
      headers: bearer(admin),
    });
    expect(edit.statusCode).toBe(200);
    const assign = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/assign',
      payload: { employeeId: employee.id, leadIds: [unassigned] },
      headers: bearer(admin),
    });
    expect(assign.statusCode).toBe(200);
    const removal = await t.app.inject({
      method: 'DELETE',
      url: `/api/Leads/${deleted}`,
      headers: bearer(admin),
    });
    expect(removal.statusCode).toBe(204);
    await t.app.deps.db
      .updateTable('leads')
      .set({ assigned_to_id: other.id })
      .where('id', '=', moved!)
      .execute();
    const arrived = await insertLead(t.app, employee, 'Arrived');

    const delta = await changes(employee, first.cursor);
    expect(delta.full).toBe(false);
    expect(delta.options).toBeUndefined();
    expect(Object.fromEntries(delta.leads.map((l) => [l.leadID, [l.name, l.status]]))).toEqual({
      [noted!]: ['Lead 2', 'Interested'],
      [edited!]: ['Edited name', null],
      [unassigned]: [expect.any(String), null],
      [arrived]: ['Arrived', null],
    });
    expect(delta.removed).toEqual([moved, deleted].sort((a, b) => a! - b!));
    expect(delta.cursor).not.toBe(first.cursor);

    // The other employee's board gains the reassigned lead.
    const theirs = await changes(other, first.cursor);
    expect(theirs.leads.map((l) => l.leadID)).toEqual([moved]);
    expect(await changes(employee, delta.cursor)).toMatchObject({ leads: [], removed: [] });
  });

  it('sends the option lists again when one of them changed', async () => {
    const start = await changes(employee);
    await t.app.deps.db
      .insertInto('locations')
      .values({ name: 'Hiranandani Gardens', sort_order: 99 })
      .execute();
    const delta = await changes(employee, start.cursor);
    expect(delta.options?.locations.map((l) => l.locationName)).toContain('Hiranandani Gardens');
  });

  it('answers the whole set for a cursor this database never gave', async () => {
    const answer = await changes(employee, '999999999999');
    expect(answer.full).toBe(true);
    expect(answer.options).toBeDefined();
  });

  it('misses no commit when two writes commit close together on two nodes', async () => {
    const node2 = await secondNode(t);
    try {
      const a = await insertLead(t.app, employee);
      const b = await insertLead(t.app, employee);
      const start = await changes(employee);
      const seen = new Set<number>();
      const read = async (cursor: string, app: App) => {
        const answer = await changes(employee, cursor, app);
        for (const lead of answer.leads) seen.add(lead.leadID);
        return answer.cursor;
      };
      if (t.app.deps.dialect === 'postgres') {
        // The first write takes its number and stays open; the second, on the other node, commits
        // as soon as it can; a reader in between must not step past the first one's number.
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let wrote!: () => void;
        const written = new Promise<void>((resolve) => {
          wrote = resolve;
        });
        const first = t.app.deps.db.transaction().execute(async (trx) => {
          await trx.updateTable('leads').set({ name: 'First writer' }).where('id', '=', a).execute();
          wrote();
          await held;
        });
        await written;
        const second = node2.app.deps.db
          .updateTable('leads')
          .set({ name: 'Second writer' })
          .where('id', '=', b)
          .execute();
        const middle = await read(start.cursor, node2.app);
        release();
        await Promise.all([first, second]);
        await read(middle, t.app);
      } else {
        // SQLite has one writer at a time across connections: the two nodes' commits interleave.
        await t.app.deps.db.updateTable('leads').set({ name: 'First writer' }).where('id', '=', a).execute();
        const middle = await read(start.cursor, node2.app);
        await node2.app.deps.db
          .updateTable('leads')
          .set({ name: 'Second writer' })
          .where('id', '=', b)
          .execute();
        await read(middle, t.app);
      }
      expect(seen).toEqual(new Set([a, b]));
    } finally {
      await node2.close();
    }
  });

  it('is for employees: an Admin is refused, and a cursor must be digits', async () => {
    const asAdmin = await t.app.inject({ method: 'GET', url: '/api/sync/changes', headers: bearer(admin) });
    expect(asAdmin.statusCode).toBe(403);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/sync/changes?since=abc',
      headers: bearer(employee),
    });
    expect(bad.statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/sync/changes' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers the same after the rows a newer one of the same employee and lead makes redundant are trimmed', async () => {
    const [a, b] = await Promise.all(['Trim A', 'Trim B'].map((n) => insertLead(t.app, employee, n)));
    const start = (await changes(employee)).cursor;
    expect((await postBatch(t.app, employee, [note(a!)])).json().results[0]!.status).toBe(201);
    const middle = (await changes(employee, start)).cursor;
    for (const lead of [a!, a!, b!])
      expect((await postBatch(t.app, employee, [note(lead)])).json().results[0]!.status).toBe(201);
    const before = [await changes(employee, start), await changes(employee, middle)];
    expect(before[0]!.leads.map((l) => l.leadID).sort()).toEqual([a, b].sort());

    const { db } = t.app.deps;
    const rowsOf = async (lead: number) =>
      (
        await db
          .selectFrom('lead_changes')
          .select('seq')
          .where('user_id', '=', employee.id)
          .where('lead_id', '=', lead)
          .execute()
      ).length;
    expect(await rowsOf(a!)).toBeGreaterThanOrEqual(3);

    expect(await t.app.deps.syncChanges.prune()).toBeGreaterThanOrEqual(2);
    expect(await rowsOf(a!)).toBe(1);
    const pairs = await db
      .selectFrom('lead_changes')
      .select(['user_id', 'lead_id', (eb) => eb.fn.countAll<number>().as('rows')])
      .groupBy(['user_id', 'lead_id'])
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    // Rows that share the newest seq of their pair (one PostgreSQL statement) may stay together.
    for (const pair of pairs) {
      const seqs = await db
        .selectFrom('lead_changes')
        .select('seq')
        .where('user_id', '=', pair.user_id)
        .where('lead_id', '=', pair.lead_id)
        .execute();
      expect(new Set(seqs.map((r) => String(r.seq))).size).toBe(1);
    }
    expect([await changes(employee, start), await changes(employee, middle)]).toEqual(before);
  });
});
