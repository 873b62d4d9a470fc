import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lead } from '../../../contract/leads';
import { messages } from '../../../contract/messages';
import {
  type Account,
  bearer,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { multipart, phone, readInvalidFile } from './admin-upload-support';

// Issue 19: a .csv and a portal's HTML table saved as ".xls" are read through the same rules as
// a workbook. The files are written in the test by SheetJS, as a spreadsheet program would.

let t: TestApp;
let admin: Account;

async function upload(filename: string, content: Buffer) {
  const { payload, contentType } = multipart(filename, content);
  return t.app.inject({
    method: 'POST',
    url: '/api/Admin/upload-leads?autoAssign=false',
    payload,
    headers: { ...bearer(admin), 'content-type': contentType },
  });
}

async function leadByPhone(p: string): Promise<Lead> {
  const res = await t.app.inject({ url: `/api/Admin/leads?search=${p}`, headers: bearer(admin) });
  return res.json()[0];
}

/** A CSV as SheetJS writes one, with the given separator and, optionally, a UTF-8 BOM. */
function csv(rows: unknown[][], FS = ',', bom = false): Buffer {
  const text = XLSX.utils.sheet_to_csv(XLSX.utils.aoa_to_sheet(rows), { FS, RS: '\r\n' });
  return Buffer.from(bom ? `\uFEFF${text}` : text, 'utf8');
}

/** An HTML table saved under an .xls name, what property portals export. */
function htmlTable(rows: unknown[][]): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Leads');
  return Buffer.from(XLSX.write(book, { type: 'string', bookType: 'html' }) as string, 'utf8');
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
});
afterAll(() => t.close());

describe('CSV', () => {
  it.each([
    ['comma', ',', false],
    ['semicolon with a BOM', ';', true],
    ['tab', '\t', false],
  ])('imports a %s separated file with quoted fields', async (_, FS, bom) => {
    const [a, b] = [phone(), phone()];
    const res = await upload(
      'leads.csv',
      csv(
        [
          ['Name', 'Phone', 'Email', 'Location', 'Visit Date'],
          ['Sharma, Asha; "Ashu"', a, 'asha@example.com', 'Baner;\tPune', '05/01/2026 10:30'],
          ['Ravi', `+91 ${b.slice(0, 5)} ${b.slice(5)}`, 'NA', 'Line one\nline two', ''],
        ],
        FS,
        bom,
      ),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ totalRows: 2, inserted: 2, skipped: 0, sheet: { name: 'CSV' } });
    const asha = await leadByPhone(a);
    expect(asha).toMatchObject({
      name: 'Sharma, Asha; "Ashu"',
      location: 'Baner;\tPune',
      email: 'asha@example.com',
    });
    // Day-first, in the agency's zone (Asia/Kolkata).
    expect(asha.visitDateTime).toBe('2026-01-05T10:30:00+05:30');
    expect((await leadByPhone(b)).location).toBe('Line one\nline two');
  });

  it('rejects rows without a usable phone, and gives them back in the rejected-rows file', async () => {
    const good = phone();
    const res = await upload(
      'mixed.csv',
      csv([
        ['Full Name', 'Mobile'],
        ['Good', good],
        ['No phone', ''],
        ['Again', good],
      ]),
    );
    expect(res.json()).toMatchObject({
      totalRows: 3,
      inserted: 1,
      skipped: 2,
      invalid: 1,
      duplicatesInFile: 1,
    });
    const { rows } = readInvalidFile(res.json().invalidFile);
    expect(rows.map((r) => r.slice(1, 3))).toEqual([
      ['Full Name', 'Mobile'],
      ['No phone', ''],
      ['Again', good],
    ]);
  });

  it('says which columns are missing, as for a workbook', async () => {
    const res = await upload(
      'nothing.csv',
      csv([
        ['Name', 'City'],
        ['Asha', 'Pune'],
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('Phone');
  });

  it('refuses a binary file renamed .csv', async () => {
    const res = await upload('leads.csv', Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 1, 2]));
    expect(res.statusCode).toBe(415);
  });
});

describe('HTML table saved as .xls', () => {
  it('imports it, reading dates day-first and keeping phones as text', async () => {
    const [a, b] = [phone(), phone()];
    const res = await upload(
      'portal-export.xls',
      htmlTable([
        ['Name', 'Phone', 'Visit Date', 'Project'],
        ['Asha & Co', a, '05/01/2026 10:30', 'Skyline <Tower>'],
        ['Ravi', `+91 ${b}`, '2026-01-06', ''],
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ totalRows: 2, inserted: 2 });
    expect(await leadByPhone(a)).toMatchObject({
      name: 'Asha & Co',
      siteVisit: 'Skyline <Tower>',
      visitDateTime: '2026-01-05T10:30:00+05:30',
    });
    expect((await leadByPhone(b)).visitDateTime).toBe('2026-01-06');
  });

  it('still refuses an .xls that is neither a workbook nor a table', async () => {
    const res = await upload('leads.xls', Buffer.from('<html><body>No table here</body></html>'));
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toContain('not an Excel .xls');
  });

  it('keeps the spec message for other extensions', async () => {
    const res = await upload('leads.htm', htmlTable([['Name', 'Phone']]));
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe(messages.upload.wrongType);
  });
});
