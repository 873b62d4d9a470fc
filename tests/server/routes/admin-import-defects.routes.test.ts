import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '../../../contract/admin';
import type { Lead } from '../../../contract/leads';
import { Role } from '../../../contract/roles';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { multipart, phone, readInvalidFile, workbook } from './admin-upload-support';

// Issue 19, defects 1, 2, 4, 5, 6 and 7: what an admin met with real exports.

let t: TestApp;
let admin: Account;

async function upload(filename: string, content: Buffer, query = 'autoAssign=false') {
  const { payload, contentType } = multipart(filename, content);
  return t.app.inject({
    method: 'POST',
    url: `/api/Admin/upload-leads?${query}`,
    payload,
    headers: { ...bearer(admin), 'content-type': contentType },
  });
}

async function leadByPhone(p: string): Promise<Lead> {
  const res = await t.app.inject({ url: `/api/Admin/leads?search=${p}`, headers: bearer(admin) });
  return res.json()[0];
}

/** A workbook of several sheets, in order. */
function book(sheets: [string, unknown[][]][]): Buffer {
  const wb = XLSX.utils.book_new();
  for (const [name, rows] of sheets) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/**
 * What Excel writes for a workbook with a password to open: an OLE compound file holding
 * EncryptionInfo and EncryptedPackage streams (MS-OFFCRYPTO), whatever the name's extension.
 */
function passwordProtected(): Buffer {
  const cfb = XLSX.CFB.utils.cfb_new();
  XLSX.CFB.utils.cfb_add(cfb, '/EncryptionInfo', Buffer.from([4, 0, 4, 0, 0x40, 0, 0, 0]));
  XLSX.CFB.utils.cfb_add(cfb, '/EncryptedPackage', Buffer.alloc(4096, 7));
  return Buffer.from(XLSX.CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
});
afterAll(() => t.close());

describe('defect 1: good leads are kept', () => {
  it('reads "NA", "-" and "N/A" emails as blank and keeps the lead', async () => {
    const phones = [phone(), phone(), phone()];
    const res = await upload(
      'emails.xlsx',
      workbook([
        ['Name', 'Phone', 'Email'],
        ['Asha', phones[0]!, 'NA'],
        ['Ravi', phones[1]!, '-'],
        ['Kiran', phones[2]!, 'N/A'],
      ]),
    );
    expect(res.json()).toMatchObject({ totalRows: 3, inserted: 3, skipped: 0, warnings: 0 });
    for (const p of phones) expect((await leadByPhone(p)).email).toBe('');
  });

  it('normalises a Facebook lead-ads phone "p:+91…"', async () => {
    const p = phone();
    const res = await upload(
      'facebook.xlsx',
      workbook([
        ['full_name', 'phone_number'],
        ['Meera', `p:+91${p}`],
      ]),
    );
    expect(res.json()).toMatchObject({ inserted: 1, skipped: 0 });
    expect((await leadByPhone(p)).name).toBe('Meera');
  });

  it('keeps a lead whose visit date cannot be read, with the text in its note and a warning', async () => {
    const p = phone();
    const res = await upload(
      'dates.xlsx',
      workbook([
        ['Name', 'Phone', 'Visit DateTime'],
        ['Later Buyer', p, 'Next week'],
      ]),
    );
    expect(res.json()).toMatchObject({ inserted: 1, skipped: 0, warnings: 1 });
    expect(await leadByPhone(p)).toMatchObject({
      visitDateTime: null,
      importNote: 'Visit date as written: Next week',
    });
  });

  it('keeps a name over 200 characters, cut to 200, with a warning', async () => {
    const p = phone();
    const long = `Dr. ${'Venkata'.repeat(40)}`;
    const res = await upload(
      'names.xlsx',
      workbook([
        ['Name', 'Phone'],
        [long, p],
      ]),
    );
    expect(res.json()).toMatchObject({ inserted: 1, warnings: 1 });
    const lead = await leadByPhone(p);
    expect(lead.name).toBe(long.slice(0, 200));
    expect(lead.importNote).toBe(`Name was ${long.length} characters, cut to the first 200`);
  });
});

describe('defect 2: rejected rows are kept on the server', () => {
  it('lists every import with its counts and serves its rejected-rows file later', async () => {
    const [good, held] = [phone(), phone()];
    await upload(
      'first.xlsx',
      workbook([
        ['Name', 'Phone'],
        ['Held', held],
      ]),
    );
    const res = await upload(
      'second.xlsx',
      workbook([
        ['Name', 'Phone'],
        ['Good', good],
        ['Short', '98100'],
        ['Again', good],
        ['Held Again', held],
      ]),
    );
    const answer = res.json();
    expect(answer).toMatchObject({
      totalRows: 4,
      inserted: 1,
      skipped: 3,
      duplicatesInFile: 1,
      duplicatesInSystem: 1,
      invalid: 1,
    });

    const history = (await t.app.inject({ url: '/api/Admin/imports', headers: bearer(admin) })).json();
    expect(history[0]).toMatchObject({
      importId: answer.importId,
      createdBy: admin.email,
      fileName: 'second.xlsx',
      totalRows: 4,
      inserted: 1,
      duplicatesInFile: 1,
      duplicatesInSystem: 1,
      invalid: 1,
      hasRejectedRows: true,
    });
    expect(history[1]).toMatchObject({ fileName: 'first.xlsx', hasRejectedRows: false });

    const file = await t.app.inject({
      url: `/api/Admin/imports/${answer.importId}/rejected-rows`,
      headers: bearer(admin),
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    const { rows } = readInvalidFile(file.rawPayload.toString('base64'));
    expect(rows.slice(1).map((r) => r[1])).toEqual(['Short', 'Again', 'Held Again']);

    const none = await t.app.inject({
      url: `/api/Admin/imports/${history[1].importId}/rejected-rows`,
      headers: bearer(admin),
    });
    expect(none.statusCode).toBe(404);
  });
});

describe('defect 4: clear refusals', () => {
  it('says that a password-protected workbook needs its password removed', async () => {
    for (const name of ['locked.xlsx', 'locked.xls']) {
      const res = await upload(name, passwordProtected());
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        'This file is password-protected. Remove the password in Excel and upload it again.',
      );
    }
  });

  it('reads the sheet that has the Name and Phone columns when the first one does not', async () => {
    const p = phone();
    const res = await upload(
      'two-sheets.xlsx',
      book([
        ['Summary', [['Campaign report'], ['Total', 1]]],
        [
          'Leads',
          [
            ['Name', 'Phone'],
            ['Second Sheet Buyer', p],
          ],
        ],
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ inserted: 1, sheet: { name: 'Leads', sheets: ['Summary', 'Leads'] } });
    expect((await leadByPhone(p)).name).toBe('Second Sheet Buyer');
  });

  it('names the sheets it looked at when none has the columns', async () => {
    const res = await upload(
      'no-leads.xlsx',
      book([
        [
          'Summary',
          [
            ['Who', 'Where'],
            ['A', 'Pune'],
          ],
        ],
        ['Notes', [['Note'], ['call back']]],
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/missing the Name and Phone columns/);
    expect(res.json().message).toMatch(/Every sheet was looked at: "Summary", "Notes"\./);
  });
});

describe('defect 5: search by phone as people type it', () => {
  it('finds a lead by "98100 00029" and "+91 98100 00029" on the Leads List and the dashboard', async () => {
    const p = phone();
    await upload(
      'search.xlsx',
      workbook([
        ['Name', 'Phone'],
        ['Spaced Phone', p],
      ]),
    );
    const spaced = `${p.slice(0, 5)} ${p.slice(5)}`;
    for (const query of [spaced, `+91 ${spaced}`, `+91-${p}`]) {
      const search = encodeURIComponent(query);
      const list = await t.app.inject({ url: `/api/Registration?search=${search}`, headers: bearer(admin) });
      expect(list.json().map((l: { name: string }) => l.name)).toEqual(['Spaced Phone']);
      const dashboard = await t.app.inject({
        url: `/api/Admin/leads?search=${search}`,
        headers: bearer(admin),
      });
      expect(dashboard.json().map((l: Lead) => l.name)).toEqual(['Spaced Phone']);
    }
  });
});

describe('defect 6: assign conflict', () => {
  it('assigns none, answers which of the selection were taken and by whom', async () => {
    const asha = await createAccount(t.app, admin, Role.Employee);
    const ravi = await createAccount(t.app, admin, Role.Employee);
    const phones = [phone(), phone(), phone()];
    await upload(
      'three.xlsx',
      workbook([
        ['Name', 'Phone'],
        ['One', phones[0]!],
        ['Two', phones[1]!],
        ['Three', phones[2]!],
      ]),
    );
    const ids = await Promise.all(phones.map(async (p) => (await leadByPhone(p)).leadID));
    // Another admin assigns Two first.
    await t.app.inject({
      method: 'POST',
      url: '/api/Admin/assign',
      headers: bearer(admin),
      payload: { employeeId: ravi.id, leadIds: [ids[1]] },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/assign',
      headers: bearer(admin),
      payload: { employeeId: asha.id, leadIds: ids },
    });
    expect(res.statusCode).toBe(409);
    const title = adminMessages.leadsTaken([{ name: 'Two', assignedTo: ravi.email }], 3);
    expect(title).toBe(
      `Nothing was assigned: 1 of the 3 selected leads is already assigned: Two (to ${ravi.email}). Unselect it and assign again.`,
    );
    expect(res.json()).toMatchObject({ title, message: title, takenLeadIds: [ids[1]] });
    expect((await leadByPhone(phones[0]!)).assignedTo).toBe('');
  });
});

describe('defect 7: times in the agency time zone', () => {
  it('stores a sheet\'s "10:30" as 10:30 in Asia/Kolkata by default, with the offset', async () => {
    const [p1, p2] = [phone(), phone()];
    await upload(
      'times.xlsx',
      workbook([
        ['Name', 'Phone', 'Visit DateTime'],
        ['Timed', p1, '05/01/2026 10:30'],
        ['Dated', p2, '05/01/2026'],
      ]),
    );
    expect((await leadByPhone(p1)).visitDateTime).toBe('2026-01-05T10:30:00+05:30');
    expect((await leadByPhone(p2)).visitDateTime).toBe('2026-01-05');
  });

  it('follows AGENCY_TIMEZONE', async () => {
    const other = await createTestApp({ AGENCY_TIMEZONE: 'Asia/Dubai' });
    try {
      const otherAdmin = await createFirstAdmin(other.app);
      const p = phone();
      const { payload, contentType } = multipart(
        'dubai.xlsx',
        workbook([
          ['Name', 'Phone', 'Visit DateTime'],
          ['Gulf', p, '2026-01-05 10:30'],
        ]),
      );
      await other.app.inject({
        method: 'POST',
        url: '/api/Admin/upload-leads?autoAssign=false',
        payload,
        headers: { ...bearer(otherAdmin), 'content-type': contentType },
      });
      const leads = await other.app.inject({
        url: `/api/Admin/leads?search=${p}`,
        headers: bearer(otherAdmin),
      });
      expect(leads.json()[0].visitDateTime).toBe('2026-01-05T10:30:00+04:00');
    } finally {
      await other.close();
    }
  });
});

describe('undo an import', () => {
  it("removes the import's leads nobody has worked, keeps the worked ones and says how many", async () => {
    const phones = [phone(), phone(), phone(), phone()];
    const res = await upload(
      'undo-me.xlsx',
      workbook([
        ['Name', 'Phone'],
        ['Untouched', phones[0]!],
        ['With Status', phones[1]!],
        ['With Reminder', phones[2]!],
        ['Also Untouched', phones[3]!],
      ]),
    );
    const { importId } = res.json();
    const [, statusLead, reminderLead] = await Promise.all(phones.map(leadByPhone));
    const now = new Date().toISOString();
    const { db } = t.app.deps;
    await db
      .insertInto('lead_statuses')
      .values({
        lead_id: statusLead!.leadID,
        call_status_id: 1,
        client_status_id: 1,
        client_priority_id: 1,
        token_id: 1,
        notes: 'called',
        created_by: admin.email,
        created_on: now,
        last_updated_by: admin.email,
        last_updated_on: now,
      })
      .execute();
    await db
      .insertInto('reminders')
      .values({
        lead_id: reminderLead!.leadID,
        user_id: admin.id,
        employee_email: admin.email,
        reminder_time: now,
        note: 'call back',
        is_sent: 0,
        created_by: admin.email,
        created_on: now,
      })
      .execute();

    const employee = await createAccount(t.app, admin, Role.Employee);
    const undo = (account: Account) =>
      t.app.inject({ method: 'POST', url: `/api/Admin/imports/${importId}/undo`, headers: bearer(account) });
    expect((await undo(employee)).statusCode).toBe(403);

    const answer = await undo(admin);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      removed: 2,
      kept: 2,
      restored: 0,
      message: 'Removed 2 leads of that import. Kept 2 leads that already have a status, note or reminder.',
    });
    expect(await leadByPhone(phones[0]!)).toBeUndefined();
    expect(await leadByPhone(phones[3]!)).toBeUndefined();
    expect((await leadByPhone(phones[1]!)).name).toBe('With Status');
    expect((await leadByPhone(phones[2]!)).name).toBe('With Reminder');

    const history = (await t.app.inject({ url: '/api/Admin/imports', headers: bearer(admin) })).json();
    expect(history.find((h: { importId: number }) => h.importId === importId).undoneAt).not.toBeNull();
    expect((await undo(admin)).statusCode).toBe(409);
    // The removed phones can be imported again.
    const again = await upload(
      'again.xlsx',
      workbook([
        ['Name', 'Phone'],
        ['Back', phones[0]!],
      ]),
    );
    expect(again.json()).toMatchObject({ inserted: 1 });
  });
});
