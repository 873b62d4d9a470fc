import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { readZipDirectory, unpackedData } from '../../../server/services/lead-import/file-check';
import { buildInvalidFile } from '../../../server/services/lead-import/invalid-file';
import { SHEETJS_READ } from '../../../server/services/lead-import/parse-sheet';
import type { Cell, SheetRow } from '../../../server/services/lead-import/row-rules';
import { openXlsxSheet } from '../../../server/services/lead-import/xlsx-rows';

const text = (v: string): Cell => ({ t: 's', v });

/** Rows as SheetJS reads the file (as Excel and LibreOffice would open it). */
function readWithSheetJs(file: Buffer): { sheetName: string; rows: string[][] } {
  const book = XLSX.read(file, { type: 'buffer', ...SHEETJS_READ });
  const sheetName = book.SheetNames[0]!;
  const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[sheetName]!, {
    header: 1,
    raw: true,
    defval: '',
  });
  return { sheetName, rows };
}

/** Rows as the import itself reads the file when the admin uploads it again. */
function readWithImport(file: Buffer): string[][] {
  const sheet = openXlsxSheet(file, { maxEntries: 100, maxColumns: 300 });
  return [...sheet.rows].map(([, row]) => Array.from(row ?? [], (c) => String(c?.v ?? '')));
}

describe('the rejected-rows file', () => {
  const awkward = [
    'Tom & Jerry <sales>',
    'two  spaces  inside',
    'looks like an escape: _x0041_',
    'control\u0001character',
    'line one\nline two',
    'नमस्ते 🏠',
  ];
  const data: SheetRow[] = [
    [text('Name'), text('Phone'), text('Notes')],
    ...awkward.map((note, i) => [text(`Lead ${i}`), text('12345'), text(note)]),
  ];
  const rejected = awkward.map((_, i) => ({ row: i + 1, reason: 'Phone must have 10 digits' }));
  const file = buildInvalidFile(data, 0, { name: 0, phone: 1 }, rejected);

  it('opens as one sheet named Invalid Leads with every cell as it was', () => {
    const { sheetName, rows } = readWithSheetJs(file);
    expect(sheetName).toBe('Invalid Leads');
    expect(rows[0]).toEqual(['Row', 'Name', 'Phone', 'Notes', 'Reason']);
    expect(rows.slice(1).map((r) => r[3])).toEqual(awkward);
    expect(rows.slice(1).every((r) => r[4] === 'Phone must have 10 digits')).toBe(true);
  });

  it('reads back the same through the import’s own reader', () => {
    const asText = (rows: unknown[][]) => rows.map((r) => r.map(String));
    expect(readWithImport(file)).toEqual(asText(readWithSheetJs(file).rows));
  });

  it('names columns past Z as a spreadsheet does', () => {
    const wide: SheetRow = Array.from({ length: 30 }, (_, c) => text(`c${c}`));
    const { rows } = readWithSheetJs(
      buildInvalidFile([wide, wide], 0, { name: 0, phone: 1 }, [{ row: 1, reason: 'x' }]),
    );
    expect(rows[1]).toEqual([2, ...Array.from({ length: 30 }, (_, c) => `c${c}`), 'x']);
    expect(rows[0]).toHaveLength(32);
  });

  it('writes rows in sheet order whatever order they were rejected in', () => {
    const { rows } = readWithSheetJs(
      buildInvalidFile(data, 0, { name: 0, phone: 1 }, [
        { row: 3, reason: 'third' },
        { row: 1, reason: 'first' },
      ]),
    );
    expect(rows.slice(1).map((r) => [r[0], r[1], r[4]])).toEqual([
      [2, 'Lead 0', 'first'],
      [4, 'Lead 2', 'third'],
    ]);
  });
});

describe('the rejected-rows file, issue 19', () => {
  const data: SheetRow[] = [
    [text('Name'), text('Phone')],
    [text('Spaced'), text('+91 98100 00029')],
    [text('Formula'), text('+SUM(A1)')],
  ];
  const file = buildInvalidFile(data, 0, { name: 0, phone: 1 }, [
    { row: 1, reason: 'x' },
    { row: 2, reason: 'y' },
  ]);
  const book = XLSX.read(file, { type: 'buffer', cellStyles: true });
  const sheet = book.Sheets[book.SheetNames[0]!]!;

  it('writes a "+91 …" phone as text without an apostrophe, and still neutralises a formula', () => {
    expect(sheet.C2?.v).toBe('+91 98100 00029');
    expect(sheet.C2?.t).toBe('s');
    expect(sheet.C3?.v).toBe("'+SUM(A1)");
  });

  it('marks the phone cell quote-prefixed and the header bold in styles.xml', () => {
    const part = (name: string) => {
      const entry = readZipDirectory(file, 100).find((e) => e.name === name)!;
      return unpackedData(file, entry).toString('utf8');
    };
    expect(part('xl/styles.xml')).toContain('quotePrefix="1"');
    expect(part('xl/worksheets/sheet1.xml')).toContain('<c r="A1" s="1"');
    expect(part('xl/worksheets/sheet1.xml')).toContain('<c r="C2" s="2"');
  });
});

describe('the rejected-rows file: row numbers and typed values (issue 19)', () => {
  const number = (v: number): Cell => ({ t: 'n', v });
  const data: SheetRow[] = [
    [text('Leads export')],
    [text('Name'), text('Phone'), text('Budget'), text('Visit Date'), text('Notes')],
    [text('Typed'), number(12345), number(7_500_000.5), number(46027.4375), text('-5 ok')],
    [text('At sign'), text('98100'), text('@home'), text('Next week'), text('=1+1')],
  ];
  const file = buildInvalidFile(data, 1, { name: 0, phone: 1, visitDateTime: 3 }, [
    { row: 3, reason: 'Phone must have 10 digits' },
    { row: 2, reason: 'Phone must have 10 digits' },
  ]);
  const book = XLSX.read(file, { type: 'buffer', cellStyles: true, cellNF: true, cellDates: false });
  const sheet = book.Sheets[book.SheetNames[0]!]!;

  it('starts each row with its number in the uploaded sheet, as the spreadsheet numbered it', () => {
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true });
    expect(rows.map((r) => [r[0], r[1]])).toEqual([
      ['Row', 'Name'],
      [3, 'Typed'],
      [4, 'At sign'],
    ]);
    expect(sheet.A2?.t).toBe('n');
  });

  it('writes numbers as numbers and the visit date as a date, day first', () => {
    expect(sheet.C2).toMatchObject({ t: 'n', v: 12345 });
    expect(sheet.D2).toMatchObject({ t: 'n', v: 7_500_000.5 });
    expect(sheet.E2).toMatchObject({ t: 'n', v: 46027.4375, z: 'dd/mm/yyyy hh:mm' });
    expect(XLSX.SSF.format(sheet.E2!.z as string, sheet.E2!.v as number)).toBe('05/01/2026 10:30');
  });

  it('neutralises only text that starts with = + - @, a tab or a CR', () => {
    expect(sheet.D3?.v).toBe("'@home");
    expect(sheet.F3?.v).toBe("'=1+1");
    expect(sheet.E3?.v).toBe('Next week');
    expect(sheet.F2?.v).toBe("'-5 ok");
    expect(sheet.C3).toMatchObject({ t: 's', v: '98100' });
  });
});
