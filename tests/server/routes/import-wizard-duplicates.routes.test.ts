import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lead } from '../../../contract/leads';
import { Role } from '../../../contract/roles';
import type { SyncChanges } from '../../../contract/sync-batch';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { multipart, phone, readInvalidFile } from './admin-upload-support';

// Issue 19, the wizard's "update duplicates": a row whose phone a live lead holds fills that
// lead's empty fields, never one with a value; the preview counts it, undo empties the fields
// again unless someone changed them since, and the holder's phone learns of it on its next sync.

let t: TestApp;
let admin: Account;
let employee: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
});
afterAll(() => t.close());

const post = (url: string, payload: object, who: Account = admin) =>
  t.app.inject({ method: 'POST', url, payload, headers: bearer(who) });

async function start(filename: string, csv: string) {
  const { payload, contentType } = multipart(filename, Buffer.from(csv));
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/Admin/imports',
    payload,
    headers: { ...bearer(admin), 'content-type': contentType },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function leadByPhone(p: string): Promise<Lead> {
  const res = await t.app.inject({ url: `/api/Admin/leads?search=${p}`, headers: bearer(admin) });
  const found = res.json() as Lead[];
  expect(found).toHaveLength(1);
  return found[0]!;
}

async function syncChanges(since?: string): Promise<SyncChanges> {
  const res = await t.app.inject({
    url: `/api/sync/changes${since === undefined ? '' : `?since=${since}`}`,
    headers: bearer(employee),
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Three leads already in the system, the first held by the employee. */
async function existing() {
  const [held, full, empty] = [phone(), phone(), phone()];
  await post('/api/Admin/leads', { name: 'Held', phoneNo: held, assignedTo: employee.email });
  await post('/api/Admin/leads', {
    name: 'Full',
    phoneNo: full,
    email: 'full@example.com',
    location: 'Baner',
    configuration: '2 BHK',
  });
  await post('/api/Admin/leads', { name: 'Empty', phoneNo: empty, location: 'Aundh' });
  return { held, full, empty };
}

const header = 'Name,Phone,Email,Location,Configuration';

describe('duplicates: update', () => {
  it('previews, fills only empty fields, reaches the holder, and is taken back by undo', async () => {
    const { held, full, empty } = await existing();
    const fresh = phone();
    const csv = [
      header,
      `Held again,${held},held@example.com,Wakad,3 BHK`,
      `Full again,${full},other@example.com,Kharadi,4 BHK`,
      `Empty again,${empty},,Hinjewadi,1 BHK`,
      `New,${fresh},new@example.com,Baner,2 BHK`,
    ].join('\r\n');
    const draft = await start('refresh.csv', csv);
    // By default a held phone is skipped, as the spec's upload does.
    expect(draft).toMatchObject({
      duplicates: 'skip',
      counts: { inserted: 1, duplicatesInSystem: 3, updated: 0 },
    });

    const preview = await post(`/api/Admin/imports/${draft.draftId}/preview`, { duplicates: 'update' });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      duplicates: 'update',
      // "Full" has every field the row brings: nothing to fill, so it stays a duplicate.
      counts: { totalRows: 4, inserted: 1, updated: 2, duplicatesInSystem: 1 },
    });
    expect((await leadByPhone(held)).email).toBe('');

    const { cursor } = await syncChanges();
    const res = await post(`/api/Admin/imports/${draft.draftId}/commit`, {
      duplicates: 'update',
      autoAssign: false,
    });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({
      totalRows: 4,
      inserted: 1,
      skipped: 3,
      updated: 2,
      duplicatesInSystem: 1,
    });
    // The rejected-rows file holds only the row that changed nothing.
    const rejected = readInvalidFile(answer.invalidFile).rows;
    expect(rejected).toHaveLength(2);
    expect(rejected[1]).toContain(full);

    expect(await leadByPhone(held)).toMatchObject({
      name: 'Held',
      email: 'held@example.com',
      location: 'Wakad',
      configuration: '3 BHK',
    });
    expect(await leadByPhone(full)).toMatchObject({
      email: 'full@example.com',
      location: 'Baner',
      configuration: '2 BHK',
    });
    // A field with a value is never overwritten; only the empty one is filled.
    expect(await leadByPhone(empty)).toMatchObject({
      name: 'Empty',
      location: 'Aundh',
      configuration: '1 BHK',
    });

    // The employee's phone gets the filled lead on its next delta refresh.
    const delta = await syncChanges(cursor);
    expect(delta.leads.find((l) => l.phoneNo === held)).toMatchObject({ email: 'held@example.com' });

    // The lead's story says where the values came from.
    const heldLead = await leadByPhone(held);
    const story = await t.app.inject({
      url: `/api/Leads/${heldLead.leadID}/timeline`,
      headers: bearer(admin),
    });
    expect(story.json().events).toContainEqual(
      expect.objectContaining({
        type: 'import-filled',
        importId: answer.importId,
        fileName: 'refresh.csv',
        // Spec §3: a Configuration column fills interestedIn too.
        fields: ['email', 'configuration', 'interestedIn', 'location'],
        by: expect.objectContaining({ email: admin.email }),
      }),
    );

    const history = (await t.app.inject({ url: '/api/Admin/imports', headers: bearer(admin) })).json();
    expect(history[0]).toMatchObject({ importId: answer.importId, inserted: 1, updated: 2 });

    // Someone changes one filled field before the undo: that one is kept.
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/Leads/${heldLead.leadID}`,
      payload: { ...heldLead, location: 'Pimple Saudagar' },
      headers: bearer(admin),
    });
    expect(edited.statusCode).toBe(200);
    const undo = await post(`/api/Admin/imports/${answer.importId}/undo`, {});
    expect(undo.statusCode).toBe(200);
    expect(undo.json()).toMatchObject({ removed: 1, kept: 0, restored: 2 });
    expect(undo.json().message).toContain('Emptied the fields it had filled on 2 existing leads.');
    expect(await leadByPhone(held)).toMatchObject({
      email: '',
      configuration: '',
      location: 'Pimple Saudagar',
    });
    expect(await leadByPhone(empty)).toMatchObject({ location: 'Aundh', configuration: '' });
  });

  it('is remembered with the mapping for the next file with the same headers', async () => {
    const first = await start('weekly.csv', `${header},Budget\r\nA,${phone()},,,,1\r\n`);
    const committed = await post(`/api/Admin/imports/${first.draftId}/commit`, {
      duplicates: 'update',
      autoAssign: false,
    });
    expect(committed.statusCode).toBe(200);
    const next = await start('weekly-2.csv', `${header},Budget\r\nB,${phone()},,,,2\r\n`);
    expect(next).toMatchObject({ remembered: true, duplicates: 'update' });
  });

  it('refuses a mode it does not know', async () => {
    const draft = await start('x.csv', `${header}\r\nA,${phone()},,,\r\n`);
    const res = await post(`/api/Admin/imports/${draft.draftId}/preview`, { duplicates: 'overwrite' });
    expect(res.statusCode).toBe(400);
  });
});
