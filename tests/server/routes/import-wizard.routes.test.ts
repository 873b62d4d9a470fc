import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMIT_STREAM_TYPE, wizardMessages } from '../../../contract/import-wizard';
import { Role } from '../../../contract/roles';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';
import { multipart, phone } from './admin-upload-support';

// Issue 19, the import wizard: preview (a dry run), mapping, remembered mapping, commit.

let t: TestApp;
let admin: Account;

function book(sheets: [string, unknown[][]][]): Buffer {
  const wb = XLSX.utils.book_new();
  for (const [name, rows] of sheets) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

async function start(filename: string, content: Buffer, who: Account = admin) {
  const { payload, contentType } = multipart(filename, content);
  return t.app.inject({
    method: 'POST',
    url: '/api/Admin/imports',
    payload,
    headers: { ...bearer(who), 'content-type': contentType },
  });
}

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, payload, headers: bearer(admin) });

async function liveLeads(): Promise<number> {
  const res = await t.app.inject({ url: '/api/Admin/stats', headers: bearer(admin) });
  const s = res.json();
  return s.assigned + s.unassigned;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
});
afterAll(() => t.close());

describe('preview', () => {
  it('shows the sheet, header, meanings, samples and counts, and writes nothing', async () => {
    const held = phone();
    await post('/api/Admin/leads', { name: 'Held', phoneNo: held });
    const before = await liveLeads();
    const [a, b] = [phone(), phone()];
    const res = await start(
      'portal.xlsx',
      book([
        ['Summary', [['Totals'], [3]]],
        [
          'Leads',
          [
            ['Weekly export'],
            ['Full Name', 'Mobile', 'Visit Date', 'Remarks'],
            ['Asha', a, '05/01/2026 10:30', 'hot'],
            ['Ravi', `+91 ${b}`, 'Next week', ''],
            ['Again', a, '', ''],
            ['Held', held, '', ''],
            ['No phone', '', '', ''],
          ],
        ],
      ]),
    );
    expect(res.statusCode).toBe(200);
    const preview = res.json();
    expect(preview).toMatchObject({
      fileName: 'portal.xlsx',
      sheet: { index: 1, name: 'Leads', sheets: ['Summary', 'Leads'], why: wizardMessages.whyFirst },
      headerRow: 2,
      columns: [
        { header: 'Full Name', meaning: 'name' },
        { header: 'Mobile', meaning: 'phone' },
        { header: 'Visit Date', meaning: 'visitDateTime' },
        { header: 'Remarks', meaning: 'ignored' },
      ],
      dateFormat: 'dayFirst',
      counts: {
        totalRows: 5,
        inserted: 2,
        duplicatesInFile: 1,
        duplicatesInSystem: 1,
        invalid: 1,
        warnings: 1,
      },
    });
    expect(preview.samples.slice(0, 2)).toMatchObject([
      { row: 3, name: 'Asha', phone: a, visitDateTime: '2026-01-05T10:30:00+05:30', note: '' },
      { row: 4, name: 'Ravi', phone: b, visitDateTime: null, note: 'Visit date as written: Next week' },
    ]);
    expect(await liveLeads()).toBe(before);
  });

  it('recomputes for another mapping: columns, month-first dates, a chosen sheet', async () => {
    const p = phone();
    const first = await start(
      'odd.xlsx',
      book([
        [
          'Other',
          [
            ['Name', 'Phone'],
            ['Wrong sheet', phone()],
          ],
        ],
        [
          'Real',
          [
            ['Customer', 'Number', 'When'],
            ['Meera', p, '01/05/2026'],
          ],
        ],
      ]),
    );
    const draftId = first.json().draftId;
    expect(first.json().sheet.name).toBe('Other');
    const res = await post(`/api/Admin/imports/${draftId}/preview`, {
      sheet: 1,
      columns: ['name', 'phone', 'visitDateTime'],
      dateFormat: 'monthFirst',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      sheet: { index: 1, name: 'Real', why: wizardMessages.whyChosen },
      headerRow: 1,
      dateFormat: 'monthFirst',
      samples: [{ name: 'Meera', phone: p, visitDateTime: '2026-01-05' }],
      counts: { totalRows: 1, inserted: 1 },
    });
  });

  it('says which columns are missing when a mapping has no phone', async () => {
    const first = await start(
      'x.xlsx',
      book([
        [
          'Leads',
          [
            ['Name', 'Phone'],
            ['A', phone()],
          ],
        ],
      ]),
    );
    const res = await post(`/api/Admin/imports/${first.json().draftId}/preview`, {
      columns: ['name', 'ignored'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('Phone column');
  });

  /** The mapping a preview shows, spelled out as the dashboard sends it back. */
  const shownMapping = (p: {
    sheet: { index: number };
    columns: { meaning: string }[];
    dateFormat: string;
    duplicates: string;
  }) => ({
    sheet: p.sheet.index,
    columns: p.columns.map((c) => c.meaning),
    dateFormat: p.dateFormat,
    duplicates: p.duplicates,
  });

  async function quickPreview(rows: unknown[][]) {
    const { payload, contentType } = multipart('counted.xlsx', book([['Leads', rows]]));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Admin/imports?counts=later',
      payload,
      headers: { ...bearer(admin), 'content-type': contentType },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().counts).toBeNull();
    return res.json();
  }

  it('answers with the samples first and the exact counts when asked again (counts=later)', async () => {
    const rows = [['Name', 'Phone'], ...Array.from({ length: 3000 }, (_, i) => [`Lead ${i}`, phone()])];
    const quick = await quickPreview(rows);
    expect(quick).toMatchObject({ counts: null, headerRow: 1 });
    expect(quick.samples.map((s: { name: string }) => s.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Lead ${i}`),
    );

    const exact = await post(`/api/Admin/imports/${quick.draftId}/preview`, {});
    expect(exact.json().counts).toMatchObject({ totalRows: 3000, inserted: 3000 });
    const later = await post(`/api/Admin/imports/${quick.draftId}/preview?counts=later`, {});
    expect(later.json().counts).toBeNull();
    // A file that ends within its first rows has its exact counts at once.
    const small = await start('small.xlsx', book([['Leads', rows.slice(0, 4)]]));
    expect(small.json().counts).toMatchObject({ totalRows: 3, inserted: 3 });
    const bad = await post(`/api/Admin/imports/${quick.draftId}/preview?counts=soon`, {});
    expect(bad.statusCode).toBe(400);
  });

  it('gives the exact counts from the pass that read the samples, asked with the mapping shown', async () => {
    const held = phone();
    await post('/api/Admin/leads', { name: 'Held', phoneNo: held });
    const repeated = phone();
    const rows = [
      ['Name', 'Phone', 'Visit Date'],
      ...Array.from({ length: 3000 }, (_, i) => [`Lead ${i}`, phone(), i === 7 ? 'Next week' : '']),
      ['Held', held, ''],
      ['Twice', repeated, ''],
      ['Twice again', repeated, ''],
      ['No phone', '12', ''],
    ];
    const starts = vi.spyOn(t.app.deps.importWorkers, 'start');
    try {
      const quick = await quickPreview(rows);
      const exact = await post(`/api/Admin/imports/${quick.draftId}/preview`, shownMapping(quick));
      expect(exact.statusCode).toBe(200);
      // One worker read the file once: the samples first, then every row for the counts.
      expect(starts).toHaveBeenCalledTimes(1);
      expect(exact.json().counts).toEqual({
        totalRows: 3004,
        inserted: 3001,
        duplicatesInFile: 1,
        duplicatesInSystem: 1,
        updated: 0,
        invalid: 1,
        warnings: 1,
      });
      expect(exact.json().samples).toEqual(quick.samples);
      // Asked again, the file is read again, to the same answer.
      const again = await post(`/api/Admin/imports/${quick.draftId}/preview`, shownMapping(quick));
      expect(starts).toHaveBeenCalledTimes(2);
      const { counts, samples, columns, headerRow } = exact.json();
      expect(again.json()).toMatchObject({ counts, samples, columns, headerRow });
    } finally {
      starts.mockRestore();
    }
  });

  it("never gives one mapping's counts for another: a changed choice is counted afresh", async () => {
    const rows = [
      ['Name', 'Phone', 'Visit Date'],
      ...Array.from({ length: 3000 }, (_, i) => [`Lead ${i}`, phone(), i < 5 ? '13/01/2026' : '']),
    ];
    const starts = vi.spyOn(t.app.deps.importWorkers, 'start');
    try {
      const dayFirst = await quickPreview(rows);
      const monthFirst = (
        await post(`/api/Admin/imports/${dayFirst.draftId}/preview?counts=later`, {
          ...shownMapping(dayFirst),
          dateFormat: 'monthFirst',
        })
      ).json();
      expect(monthFirst.counts).toBeNull();
      expect(starts).toHaveBeenCalledTimes(2);
      // Month 13 cannot be read month first: five warnings, none day first.
      const counted = await post(`/api/Admin/imports/${dayFirst.draftId}/preview`, shownMapping(monthFirst));
      expect(counted.json().counts).toMatchObject({ totalRows: 3000, warnings: 5 });
      expect(starts).toHaveBeenCalledTimes(2);
      const first = await post(`/api/Admin/imports/${dayFirst.draftId}/preview`, shownMapping(dayFirst));
      expect(first.json().counts).toMatchObject({ totalRows: 3000, warnings: 0 });
      expect(starts).toHaveBeenCalledTimes(3);
    } finally {
      starts.mockRestore();
    }
  });

  it('is for admins only', async () => {
    const manager = await createAccount(t.app, admin, Role.Manager);
    const res = await start('x.xlsx', book([['Leads', [['Name', 'Phone']]]]), manager);
    expect(res.statusCode).toBe(403);
  });
});

describe('commit', () => {
  it('imports with the mapping, answers as upload-leads, lands in history, and cannot run twice', async () => {
    const [a, b] = [phone(), phone()];
    const first = await start(
      'mapped.csv',
      Buffer.from(`Customer;Mobile;Where\r\nAsha;${a};Baner\r\nRavi;${b};Wakad\r\nBad;123;\r\n`),
    );
    expect(first.json()).toMatchObject({ sheet: { why: wizardMessages.whyCsv } });
    const draftId = first.json().draftId;
    const mapping = { columns: ['name', 'phone', 'location'], dateFormat: 'dayFirst' };
    const res = await post(`/api/Admin/imports/${draftId}/commit`, { ...mapping, autoAssign: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      totalRows: 3,
      inserted: 2,
      skipped: 1,
      invalid: 1,
      autoAssigned: false,
    });
    expect(typeof res.json().invalidFile).toBe('string');

    const history = (await t.app.inject({ url: '/api/Admin/imports', headers: bearer(admin) })).json();
    expect(history[0]).toMatchObject({ importId: res.json().importId, fileName: 'mapped.csv', inserted: 2 });
    const lead = (
      await t.app.inject({ url: `/api/Admin/leads?search=${a}`, headers: bearer(admin) })
    ).json()[0];
    expect(lead).toMatchObject({ name: 'Asha', location: 'Baner' });

    const again = await post(`/api/Admin/imports/${draftId}/commit`, { autoAssign: false });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(wizardMessages.draftNotFound);

    // The next file with the same headers opens with the mapping chosen here.
    const next = await start(
      'mapped-2.csv',
      Buffer.from(`Customer;Mobile;Where\r\nKiran;${phone()};Aundh\r\n`),
    );
    expect(next.json()).toMatchObject({
      remembered: true,
      columns: [{ meaning: 'name' }, { meaning: 'phone' }, { meaning: 'location' }],
      counts: { inserted: 1 },
    });
  });

  it('streams its progress, then the answer, when asked for lines', async () => {
    const rows = [['Name', 'Phone'], ...Array.from({ length: 3000 }, (_, i) => [`Lead ${i}`, phone()])];
    const draft = await start('progress.xlsx', book([['Leads', rows]]));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/Admin/imports/${draft.json().draftId}/commit`,
      payload: { autoAssign: false },
      headers: { ...bearer(admin), accept: COMMIT_STREAM_TYPE },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(COMMIT_STREAM_TYPE);
    const lines = res.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const progress = lines.slice(0, -1).map((l) => l.progress.rowsDone as number);
    expect(progress.length).toBeGreaterThan(0);
    // Rows below the header, growing, never past the file's.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBeLessThanOrEqual(3000);
    expect(lines.at(-1)).toMatchObject({ answer: { totalRows: 3000, inserted: 3000, skipped: 0 } });
  });

  it('answers an error before any row as problem JSON, even when asked for lines', async () => {
    const draft = await start('no-phone.csv', Buffer.from(`Name,Phone\r\nA,${phone()}\r\n`));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/Admin/imports/${draft.json().draftId}/commit`,
      payload: { columns: ['name', 'ignored'], autoAssign: false },
      headers: { ...bearer(admin), accept: COMMIT_STREAM_TYPE },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('shows a file whose headers it does not know, and remembers how the admin mapped them', async () => {
    const rows = (p: string) => [
      ['Buyer', 'Cell', 'Zone'],
      ['Asha', p, 'Baner'],
    ];
    const first = await start('unknown-headers.xlsx', book([['Export', rows(phone())]]));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      sheet: { index: 0, why: wizardMessages.whyUnknown },
      headerRow: 1,
      columns: [
        { header: 'Buyer', meaning: 'ignored' },
        { header: 'Cell', meaning: 'phone' },
        { header: 'Zone', meaning: 'ignored' },
      ],
      // No name column known: the row is kept with a warning, its name empty.
      samples: [{ name: '', note: 'The row had no name', location: '' }],
      counts: { totalRows: 1, inserted: 1, warnings: 1 },
    });
    const committed = await post(`/api/Admin/imports/${first.json().draftId}/commit`, {
      sheet: 0,
      columns: ['name', 'phone', 'location'],
      autoAssign: false,
    });
    expect(committed.json()).toMatchObject({ inserted: 1 });

    const next = await start('unknown-headers-2.xlsx', book([['Export', rows(phone())]]));
    expect(next.json()).toMatchObject({
      remembered: true,
      columns: [{ meaning: 'name' }, { meaning: 'phone' }, { meaning: 'location' }],
      samples: [{ name: 'Asha', location: 'Baner' }],
      counts: { inserted: 1, warnings: 0 },
    });
  });
});

describe('a commit stopped after its first rows', () => {
  it('says why in its last line and saves nothing', async () => {
    const small = await createTestApp({ MAX_UPLOAD_ROWS: '1000' });
    try {
      const owner = await createFirstAdmin(small.app);
      const rows = [['Name', 'Phone'], ...Array.from({ length: 3000 }, (_, i) => [`Lead ${i}`, phone()])];
      const { payload, contentType } = multipart('too-long.xlsx', book([['Leads', rows]]));
      // The samples come from the first rows, before the row limit is reached.
      const draft = await small.app.inject({
        method: 'POST',
        url: '/api/Admin/imports?counts=later',
        payload,
        headers: { ...bearer(owner), 'content-type': contentType },
      });
      expect(draft.statusCode).toBe(200);
      const res = await small.app.inject({
        method: 'POST',
        url: `/api/Admin/imports/${draft.json().draftId}/commit`,
        payload: { autoAssign: false },
        headers: { ...bearer(owner), accept: COMMIT_STREAM_TYPE },
      });
      const lines = res.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines[0]).toHaveProperty('progress');
      expect(lines.at(-1)).toMatchObject({
        error: { status: 413, message: expect.stringContaining('1,000') },
      });
      const stats = (await small.app.inject({ url: '/api/Admin/stats', headers: bearer(owner) })).json();
      expect(stats.assigned + stats.unassigned).toBe(0);
    } finally {
      await small.close();
    }
  });
});
