import * as XLSX from '@e965/xlsx';
import { zipArchive } from '../security/spreadsheet-attacks';

// Spreadsheets for the upload tests, made in the test the way a user's program would save them.

export type Row = (string | number | XLSX.CellObject | null)[];

/** A workbook made the way a user's spreadsheet program would save it. */
export function workbook(rows: Row[], bookType: 'xlsx' | 'biff8' = 'xlsx'): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet(rows as unknown[][]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Leads');
  return XLSX.write(book, { type: 'buffer', bookType, compression: true }) as Buffer;
}

export function multipart(filename: string, content: Buffer) {
  const boundary = '----leadnest-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Reads an answer's invalidFile back as rows of text, the way the admin would open it. */
export function readInvalidFile(base64: string): { rows: string[][]; formulas: number } {
  const book = XLSX.read(Buffer.from(base64, 'base64'), { type: 'buffer', cellFormula: true });
  const sheet = book.Sheets[book.SheetNames[0]!]!;
  const formulas = Object.keys(sheet).filter(
    (k) => !k.startsWith('!') && (sheet[k] as XLSX.CellObject).f,
  ).length;
  const rows = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: '' });
  return { rows, formulas };
}

let phoneCounter = 0;
/** A fresh valid phone per call, so tests on one database do not collide. */
export function phone(): string {
  phoneCounter += 1;
  return `9${String(100_000_000 + phoneCounter * 7919).padStart(9, '0')}`;
}

/**
 * A stored (uncompressed) ZIP whose central directory may claim a bigger unpacked size than the
 * data holds, which is what a zip bomb's directory looks like to the size check.
 */
export function zipOf(files: Record<string, string>, claimedSize?: number): Buffer {
  return zipArchive(
    Object.entries(files).map(([name, text]) => {
      const data = Buffer.from(text);
      return { name, stored: data, method: 0, declaredSize: claimedSize ?? data.length };
    }),
  );
}
