import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '../../../contract/admin';
import { messages } from '../../../contract/messages';
import { Role } from '../../../contract/roles';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { multipart, phone, readInvalidFile, workbook, zipOf } from './admin-upload-support';

let t: TestApp;
let admin: Account;

async function upload(
  filename: string,
  content: Buffer,
  query = 'autoAssign=false',
  account: Account = admin,
) {
  const { payload, contentType } = multipart(filename, content);
  return t.app.inject({
    method: 'POST',
    url: `/api/Admin/upload-leads?${query}`,
    payload,
    headers: { ...bearer(account), 'content-type': contentType },
  });
}

async function leadCount(): Promise<number> {
  const row = await t.app.deps.db
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function leadByPhone(p: string) {
  const res = await t.app.inject({ url: `/api/Admin/leads?search=${p}`, headers: bearer(admin) });
  return res.json()[0];
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
});
afterAll(() => t.close());

describe('POST /api/Admin/upload-leads with valid spreadsheets', () => {
  it('imports every valid row of an .xlsx and answers the spec counts', async () => {
    const [p1, p2] = [phone(), phone()];
    const res = await upload(
      'leads.xlsx',
      workbook([
        ['Name', 'Phone No', 'Email', 'Visit DateTime', 'Configuration', 'Site Visit', 'Location'],
        ['Asha Verma', p1, 'asha@example.com', '2026-01-05 10:30', '2 BHK', 'Green Acres', 'Baner'],
        ['Ravi Kumar', Number(p2), '', '', '3 BHK', 'Lake View', 'Wakad'],
      ]),
      'autoAssign=false&utcOffset=330',
    );
    expect(res.statusCode).toBe(200);
    // toMatchObject since issue 19: the answer also carries the import's id and split counts.
    expect(res.json()).toMatchObject({ totalRows: 2, inserted: 2, skipped: 0, autoAssigned: false });
    expect(await leadByPhone(p1)).toMatchObject({
      name: 'Asha Verma',
      email: 'asha@example.com',
      phoneNo: p1,
      contactNo: p1,
      visitDateTime: '2026-01-05T10:30:00+05:30',
      configuration: '2 BHK',
      interestedIn: '2 BHK',
      siteVisit: 'Green Acres',
      location: 'Baner',
      locationName: 'Baner',
      assignedTo: '',
      assignedDate: null,
      status: null,
    });
    expect(await leadByPhone(p2)).toMatchObject({ name: 'Ravi Kumar', phoneNo: p2, visitDateTime: null });
  });

  it('reads an upload sent in chunks with no length given', async () => {
    // Bigger than the first buffer the route sizes when it has no length to go by.
    const rows: (string | number)[][] = [['Name', 'Phone', 'Location']];
    const phones = Array.from({ length: 3000 }, () => phone());
    for (const [i, p] of phones.entries())
      rows.push([`Chunked Lead ${i}`, p, 'Somewhere far away, past the ring road']);
    const file = workbook(rows);
    expect(file.length).toBeGreaterThan(128 * 1024);
    const { payload, contentType } = multipart('chunked.xlsx', file);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/upload-leads?autoAssign=false',
      payload: Readable.from([payload.subarray(0, 50_000), payload.subarray(50_000)]),
      headers: { ...bearer(admin), 'content-type': contentType },
    });
    expect(res.json()).toMatchObject({ totalRows: 3000, inserted: 3000, skipped: 0, autoAssigned: false });
    expect((await leadByPhone(phones.at(-1)!)).name).toBe('Chunked Lead 2999');
  });

  it('reads an .xls (Excel 97-2003) file too', async () => {
    const p = phone();
    const res = await upload(
      'old-export.xls',
      workbook(
        [
          ['Name', 'Phone'],
          ['Meena Iyer', p],
        ],
        'biff8',
      ),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ totalRows: 1, inserted: 1, skipped: 0 });
    expect(await leadByPhone(p)).toMatchObject({ name: 'Meena Iyer' });
  });

  it('matches synonym headers whatever their case, spacing and punctuation', async () => {
    const p = phone();
    const res = await upload(
      'synonyms.xlsx',
      workbook([
        ['Leads exported from the portal'],
        [],
        ['FULL NAME', 'mobile no.', 'E-mail ID', 'Visit Date', 'BHK', 'Campaign', 'Locality', 'Notes'],
        [
          'Kiran Rao',
          `+91 ${p.slice(0, 5)} ${p.slice(5)}`,
          'kiran@example.com',
          '12/03/2026',
          '1 RK',
          'Diwali Mailer',
          'Hinjewadi',
          'call after 6',
        ],
      ]),
      'autoAssign=false&utcOffset=0',
    );
    expect(res.json()).toMatchObject({ totalRows: 1, inserted: 1 });
    expect(await leadByPhone(p)).toMatchObject({
      name: 'Kiran Rao',
      phoneNo: p,
      email: 'kiran@example.com',
      // A date with no time is stored as the date (issue 19).
      visitDateTime: '2026-03-12',
      configuration: '1 RK',
      interestedIn: '1 RK',
      siteVisit: 'Diwali Mailer',
      location: 'Hinjewadi',
    });
  });

  it('reads Excel serial dates and text dates in the uploader’s zone', async () => {
    const [p1, p2, p3] = [phone(), phone(), phone()];
    const res = await upload(
      'dates.xlsx',
      workbook([
        ['Name', 'Phone', 'Visit DateTime'],
        // 46027.4375 is 2026-01-05 10:30 as Excel stores it, shown with a date format.
        ['Serial Date', p1, { t: 'n', v: 46027.4375, z: 'dd/mm/yyyy hh:mm' }],
        ['Day First', p2, '05/01/2026 10:30 AM'],
        ['Month Name', p3, '5 Jan 2026 22:15'],
      ]),
      'autoAssign=false&utcOffset=330',
    );
    expect(res.json()).toMatchObject({ inserted: 3, skipped: 0 });
    // The wall-clock time with the zone's offset (issue 19; was the UTC instant).
    expect((await leadByPhone(p1)).visitDateTime).toBe('2026-01-05T10:30:00+05:30');
    expect((await leadByPhone(p2)).visitDateTime).toBe('2026-01-05T10:30:00+05:30');
    expect((await leadByPhone(p3)).visitDateTime).toBe('2026-01-05T22:15:00+05:30');
  });

  it('imports a formula cell by its value and never stores the formula', async () => {
    const p = phone();
    const res = await upload(
      'formulas.xlsx',
      workbook([
        ['Name', 'Phone', 'Site Visit'],
        [
          { t: 's', v: 'Ravi Shah', f: 'CONCATENATE("Ravi"," ","Shah")' },
          p,
          { t: 's', v: 'Sky Towers', f: 'UPPER("Sky Towers")' },
        ],
      ]),
    );
    expect(res.json()).toMatchObject({ inserted: 1 });
    expect(await leadByPhone(p)).toMatchObject({ name: 'Ravi Shah', siteVisit: 'Sky Towers' });
  });
});

describe('the template in public/', () => {
  it('uploads cleanly as it ships', async () => {
    const template = fs.readFileSync(
      path.resolve(import.meta.dirname, '../../../public/templates/leads-template.xlsx'),
    );
    const res = await upload('leads-template.xlsx', template);
    expect(res.json()).toMatchObject({ totalRows: 2, inserted: 2, skipped: 0, autoAssigned: false });
  });
});

describe('rejected rows', () => {
  // Issue 19 changed this test: only rows with no callable phone, or a repeated one, are
  // rejected now; a missing name, an unusable email or date and a long name were rejected before.
  it('skips every kind of invalid row and returns them in an .xlsx with a Reason column', async () => {
    const good = phone();
    const res = await upload(
      'mixed.xlsx',
      workbook([
        ['Name', 'Phone', 'Email', 'Visit DateTime', 'Site Visit'],
        ['Valid Person', good, 'ok@example.com', '', 'Expo'],
        ['', phone(), '', '', ''],
        ['No Phone', '', '', '', ''],
        ['Short Phone', '12345', '', '', ''],
        ['Bad Email', phone(), 'not-an-email', '', ''],
        ['Bad Date', phone(), '', '31/02/2026', ''],
        ['x'.repeat(201), phone(), '', '', ''],
        ['Twice', `0${good}`, '', '', 'Expo'],
        ['', '', '', '', ''],
      ]),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ totalRows: 8, inserted: 5, skipped: 3, autoAssigned: false });
    const { rows, formulas } = readInvalidFile(body.invalidFile);
    expect(formulas).toBe(0);
    expect(rows[0]).toEqual(['Row', 'Name', 'Phone', 'Email', 'Visit DateTime', 'Site Visit', 'Reason']);
    expect(rows.slice(1).map((r) => r.at(-1))).toEqual([
      'Phone is required',
      'Phone must have 10 digits',
      'Duplicate phone: same as row 2 of this file',
    ]);
    expect(rows[2]!.slice(1, 3)).toEqual(['Short Phone', '12345']);
  });

  it('skips phones that live leads already hold and says who holds them', async () => {
    const employee = await createAccount(t.app, admin, Role.Employee);
    const [held, free] = [phone(), phone()];
    await t.app.inject({
      method: 'POST',
      url: '/api/Admin/leads',
      payload: { name: 'Existing', phoneNo: held, assignedTo: employee.email },
      headers: bearer(admin),
    });
    const [unheld] = [phone()];
    await t.app.inject({
      method: 'POST',
      url: '/api/Admin/leads',
      payload: { name: 'Pool', phoneNo: unheld },
      headers: bearer(admin),
    });

    const res = await upload(
      'again.xlsx',
      workbook([
        ['Name', 'Phone'],
        ['Same Number', `+91-${held}`],
        ['Pool Again', unheld],
        ['New One', free],
      ]),
    );
    expect(res.json()).toMatchObject({ totalRows: 3, inserted: 1, skipped: 2 });
    const { rows } = readInvalidFile(res.json().invalidFile);
    expect(rows.slice(1)).toEqual([
      // A phone is not a formula: no apostrophe since issue 19 (was `'+91-…`).
      ['2', 'Same Number', `+91-${held}`, adminMessages.duplicatePhone(employee.email)],
      ['3', 'Pool Again', unheld, adminMessages.duplicatePhone('')],
    ]);
    expect((await leadByPhone(held)).name).toBe('Existing');
  });

  it('neutralises formula-looking text in the rejected-rows file', async () => {
    const res = await upload(
      'inject.xlsx',
      workbook([
        ['Name', 'Phone', 'Email'],
        ['=HYPERLINK("http://evil.example","click")', 'call me', ''],
        ['@SUM(1+1)', '-12', '+cmd'],
      ]),
    );
    const { rows, formulas } = readInvalidFile(res.json().invalidFile);
    expect(formulas).toBe(0);
    expect(rows[1]!.slice(1, 3)).toEqual([`'=HYPERLINK("http://evil.example","click")`, 'call me']);
    expect(rows[2]!.slice(1, 4)).toEqual(["'@SUM(1+1)", "'-12", "'+cmd"]);
  });

  it('accepts its own rejected-rows file back once the rows are fixed', async () => {
    const p = phone();
    const first = await upload(
      'fix-me.xlsx',
      workbook([
        ['Name', 'Phone'],
        ['Fixed Name', `+91 ${p.slice(0, 6)}`],
      ]),
    );
    const { rows } = readInvalidFile(first.json().invalidFile);
    rows[1]![2] = `+91 ${p}`;
    const again = await upload('fixed.xlsx', workbook(rows));
    expect(again.json()).toMatchObject({ totalRows: 1, inserted: 1 });
    expect((await leadByPhone(p)).name).toBe('Fixed Name');
  });
});

describe('files that are refused, changing nothing', () => {
  const cases: [string, () => Buffer, string, number, string][] = [
    [
      'a text file',
      () => Buffer.from('Name,Phone\nA,9876543210\n'),
      'leads.txt',
      415,
      messages.upload.wrongType,
    ],
    ['an .ods', () => workbook([['Name', 'Phone']]), 'leads.ods', 415, messages.upload.wrongType],
    ['a binary file named .csv', () => workbook([['Name', 'Phone']]), 'leads.csv', 415, 'is not text'],
    [
      'an .xlsx that is an OLE file',
      () => workbook([['Name', 'Phone']], 'biff8'),
      'leads.xlsx',
      415,
      'not an Excel .xlsx',
    ],
    ['an .xls that is a ZIP', () => workbook([['Name', 'Phone']]), 'leads.xls', 415, 'not an Excel .xls'],
    [
      'a text file named .xlsx',
      () => Buffer.from('hello, not a spreadsheet'),
      'leads.xlsx',
      415,
      'not an Excel .xlsx',
    ],
    [
      'a truncated .xlsx',
      () =>
        workbook([
          ['Name', 'Phone'],
          ['A', phone()],
        ]).subarray(0, 300),
      'leads.xlsx',
      400,
      'damaged',
    ],
    [
      'a ZIP that is no workbook',
      () => zipOf({ 'word/document.xml': '<w/>', '[Content_Types].xml': '<x/>' }),
      'leads.xlsx',
      415,
      'not an Excel workbook',
    ],
    ['an empty sheet', () => workbook([]), 'leads.xlsx', 400, 'no data rows'],
    ['a header without rows', () => workbook([['Name', 'Phone']]), 'leads.xlsx', 400, 'no data rows'],
    [
      'a sheet without a Phone column',
      () =>
        workbook([
          ['Name', 'City'],
          ['A', 'Pune'],
        ]),
      'leads.xlsx',
      400,
      'missing the Phone column',
    ],
    [
      'a sheet without Name and Phone',
      () =>
        workbook([
          ['Who', 'Where'],
          ['A', 'Pune'],
        ]),
      'leads.xlsx',
      400,
      'missing the Name and Phone columns',
    ],
    ['an empty file', () => Buffer.alloc(0), 'leads.xlsx', 400, 'empty'],
  ];
  it.each(cases)('%s', async (_label, build, filename, status, text) => {
    const before = await leadCount();
    const res = await upload(filename, build());
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().message).toContain(text);
    expect(await leadCount()).toBe(before);
  });

  it('refuses a zip bomb from its directory, before inflating anything', async () => {
    const bomb = zipOf({ '[Content_Types].xml': '<x/>', 'xl/workbook.xml': '<w/>' }, 300 * 1024 * 1024);
    const res = await upload('bomb.xlsx', bomb);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toContain('unpacks to more than 200 MB');
  });

  it('refuses a ZIP with thousands of parts', async () => {
    const parts: Record<string, string> = { '[Content_Types].xml': '<x/>', 'xl/workbook.xml': '<w/>' };
    for (let i = 0; i < 1001; i++) parts[`xl/media/p${i}.xml`] = '';
    const res = await upload('parts.xlsx', zipOf(parts));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('more than 1000 parts');
  });

  it('answers 400 with the spec message when no file is sent', async () => {
    const boundary = 'b';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/upload-leads',
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n--${boundary}--\r\n`,
      headers: { ...bearer(admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.upload.noFile);
  });

  it('answers 415 to a JSON body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/upload-leads',
      payload: {},
      headers: bearer(admin),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toContain('multipart/form-data');
  });

  it('lets only an Admin upload', async () => {
    const manager = await createAccount(t.app, admin, Role.Manager);
    const employee = await createAccount(t.app, admin, Role.Employee);
    const file = workbook([
      ['Name', 'Phone'],
      ['A', phone()],
    ]);
    expect((await upload('a.xlsx', file, '', manager)).statusCode).toBe(403);
    expect((await upload('a.xlsx', file, '', employee)).statusCode).toBe(403);
    const { payload, contentType } = multipart('a.xlsx', file);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/upload-leads',
      payload,
      headers: { 'content-type': contentType },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
