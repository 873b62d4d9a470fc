import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { LoadBalancer } from '../../../server/services/assignment.service';
import { mapColumns } from '../../../server/services/lead-import/columns';
import { parseVisitDate } from '../../../server/services/lead-import/dates';
import { checkSpreadsheet } from '../../../server/services/lead-import/file-check';
import { neutralise } from '../../../server/services/lead-import/invalid-file';
import { parseSpreadsheet } from '../../../server/services/lead-import/parse-sheet';
import {
  createParseWorkers,
  type ParseJob,
  type ParseWorkers,
  workerMessages,
} from '../../../server/services/lead-import/parse-workers';
import { phone, workbook, zipOf } from '../routes/admin-upload-support';

const limits = { maxUnpackedBytes: 200 * 1024 * 1024, maxEntries: 1000 };

// Issue 19 changed what is stored: the wall-clock time with the agency's offset (was the UTC
// instant, "…T05:00:00.000Z"), and a date without a time as the date alone (was its midnight).
describe('visit dates', () => {
  const ist = { timeZone: 'Asia/Kolkata' };
  it.each([
    ['2026-01-05 10:30', '2026-01-05T10:30:00+05:30'],
    ['2026-01-05T10:30:00Z', '2026-01-05T16:00:00+05:30'],
    ['2026-01-05T10:30+01:00', '2026-01-05T15:00:00+05:30'],
    ['05/01/2026', '2026-01-05'],
    ['5-1-26 10:30 PM', '2026-01-05T22:30:00+05:30'],
    ['5.1.2026 22:30', '2026-01-05T22:30:00+05:30'],
    ['5 Jan 2026', '2026-01-05'],
    ['January 5, 2026 9 am', '2026-01-05T09:00:00+05:30'],
    ['46027.4375', '2026-01-05T10:30:00+05:30'],
    ['46027', '2026-01-05'],
    ['', null],
  ])('reads %j in Asia/Kolkata as %s', (text, iso) => {
    expect(parseVisitDate(text, ist)).toEqual({ ok: true, iso });
  });

  it.each(['31/02/2026', '13/13/2026', '2026-01-05 24:00', '10:30', 'soon', 'Marzipan 5 2026', '12'])(
    'refuses %j',
    (text) => {
      expect(parseVisitDate(text, ist)).toEqual({ ok: false });
    },
  );

  it("reads an Excel serial number as the wall-clock time it shows, with the zone's offset", () => {
    expect(parseVisitDate(46027.4375, { offsetMinutes: 0 })).toEqual({
      ok: true,
      iso: '2026-01-05T10:30:00+00:00',
    });
    expect(parseVisitDate(46027.4375, { offsetMinutes: -300 })).toEqual({
      ok: true,
      iso: '2026-01-05T10:30:00-05:00',
    });
    expect(parseVisitDate(-1, ist)).toEqual({ ok: false });
  });

  it('follows a zone with summer time: the offset of that date', () => {
    const newYork = { timeZone: 'America/New_York' };
    expect(parseVisitDate('2026-01-05 10:30', newYork)).toEqual({
      ok: true,
      iso: '2026-01-05T10:30:00-05:00',
    });
    expect(parseVisitDate('2026-07-05 10:30', newYork)).toEqual({
      ok: true,
      iso: '2026-07-05T10:30:00-04:00',
    });
    // The instant is right: 10:30 in New York in July is 14:30 UTC.
    expect(new Date('2026-07-05T10:30:00-04:00').toISOString()).toBe('2026-07-05T14:30:00.000Z');
  });
});

describe('header synonyms', () => {
  it('ignores case, spaces and punctuation, and the first matching column wins', () => {
    expect(
      mapColumns([
        'Full-Name',
        'CONTACT NO.',
        'Email ID',
        'visit_date',
        'Interested In',
        'Project',
        'Area',
        'Mobile',
      ]),
    ).toEqual({ name: 0, phone: 1, email: 2, visitDateTime: 3, interestedIn: 4, siteVisit: 5, location: 6 });
  });
});

describe('rejected-rows file', () => {
  it('neutralises text a spreadsheet program would run as a formula', () => {
    // Issue 19: a phone such as "+91" or "+91 98100 00029" is not a formula and stays as typed.
    expect(['=1+1', '+91', '-5', '@SUM(A1)', '\t=1', 'plain', "'=kept"].map(neutralise)).toEqual([
      "'=1+1",
      '+91',
      "'-5",
      "'@SUM(A1)",
      "'\t=1",
      'plain',
      "'=kept",
    ]);
  });
});

describe('file checks', () => {
  it('accepts a real .xlsx and .xls', () => {
    expect(checkSpreadsheet(workbook([['Name', 'Phone']]), 'Leads.XLSX', limits)).toBe('xlsx');
    expect(checkSpreadsheet(workbook([['Name', 'Phone']], 'biff8'), 'leads.xls', limits)).toBe('xls');
  });

  it('treats a ZIP64 size marker without its extra field as damaged', () => {
    const zip = zipOf({ '[Content_Types].xml': '<x/>', 'xl/workbook.xml': '<w/>' }, 0xffffffff);
    expect(() => checkSpreadsheet(zip, 'z.xlsx', limits)).toThrow(/damaged/);
  });
});

describe('rows of a sheet', () => {
  it('counts non-blank rows only and keeps the first row of a repeated phone', () => {
    const p = phone();
    const { result } = parseSpreadsheet(
      workbook([['Name', 'Phone'], ['A', p], [], ['B', `+91${p}`], ['C', phone()]]),
      { maxRows: 10, zone: { offsetMinutes: 0 } },
    );
    expect(result).toMatchObject({ ok: true, totalRows: 3 });
    if (!result.ok) return;
    expect(result.valid.map((r) => r.name)).toEqual(['A', 'C']);
    expect(result.rejected).toEqual([{ row: 3, reason: 'Duplicate phone: same as row 2 of this file' }]);
  });
});

describe('auto-assign balance', () => {
  it('always hands the next lead to a least-loaded employee, ties to the lowest id', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 12, maxLength: 12 }),
        fc.integer({ min: 0, max: 200 }),
        (ids, opens, leads) => {
          const loads = ids.map((id, i) => ({ id, open: opens[i]! }));
          const balancer = new LoadBalancer(loads);
          const expected = new Map(loads.map((l) => [l.id, l.open]));
          for (let n = 0; n < leads; n++) {
            const got = balancer.next()!;
            const min = Math.min(...expected.values());
            const choice = Math.min(...[...expected].filter(([, open]) => open === min).map(([id]) => id));
            expect(got).toBe(choice);
            expected.set(got, expected.get(got)! + 1);
          }
        },
      ),
    );
  });

  it('takes back a lead that was not inserted', () => {
    const balancer = new LoadBalancer([
      { id: 1, open: 2 },
      { id: 2, open: 2 },
    ]);
    expect(balancer.next()).toBe(1);
    balancer.release(1);
    expect(balancer.next()).toBe(1);
    expect(balancer.next()).toBe(2);
    expect(new LoadBalancer([]).next()).toBeNull();
  });
});

/** Parses in the worker and counts what comes back. */
async function parseAll(job: ParseJob, file: Buffer, maxRows = 100_000) {
  await job.start(file, { maxRows, zone: { offsetMinutes: 0 } });
  const chunks = job.chunks();
  let valid = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done) return { totalRows: next.value.totalRows, valid, invalidCount: next.value.invalidCount };
    valid += next.value.count;
  }
}

describe('parse workers', () => {
  let workers: ParseWorkers | undefined;
  afterEach(async () => {
    await workers?.close();
    workers = undefined;
  });

  const sheet = () => {
    const rows: (string | number)[][] = [['Name', 'Phone']];
    for (let i = 0; i < 20_000; i++) rows.push([`Lead ${i}`, 7_000_000_000 + i]);
    return workbook(rows);
  };

  it('parses in a worker thread and builds the rejected-rows file there', async () => {
    workers = createParseWorkers({ memoryMb: 256, timeoutMs: 60_000 });
    const job = workers.start();
    try {
      const file = workbook([
        ['Name', 'Phone'],
        ['Ok', phone()],
        ['', 'x'],
      ]);
      expect(await parseAll(job, file, 10)).toEqual({ totalRows: 2, valid: 1, invalidCount: 1 });
      const invalid = await job.invalidFile([{ row: 1, reason: 'Taken' }]);
      expect(invalid.subarray(0, 2).toString()).toBe('PK');
    } finally {
      job.close();
    }
  });

  it('answers 413 when reading takes longer than the limit', async () => {
    workers = createParseWorkers({ memoryMb: 256, timeoutMs: 1 });
    const job = workers.start();
    await expect(parseAll(job, sheet())).rejects.toMatchObject({
      status: 413,
      message: workerMessages.timeout(0),
    });
    job.close();
  });

  it('answers 413 when the workbook needs more memory than a worker may use', async () => {
    workers = createParseWorkers({ memoryMb: 16, timeoutMs: 60_000 });
    const job = workers.start();
    await expect(parseAll(job, sheet())).rejects.toMatchObject({
      status: 413,
      message: workerMessages.memory,
    });
    job.close();
  });
});
