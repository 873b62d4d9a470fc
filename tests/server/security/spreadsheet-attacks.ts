import zlib from 'node:zlib';
import * as XLSX from '@e965/xlsx';

// Hostile spreadsheets, built in the test the way an attacker would: a real workbook whose
// sheet part is swapped for something else, packed in a ZIP whose directory says what we choose.

import { type ZipPart, zipArchive } from '../../../server/services/lead-import/zip-archive';

export { type ZipPart, zipArchive };

/** Deflates head + body×times + tail without ever holding the unpacked text. */
export async function deflateRepeated(
  head: string,
  body: string,
  times: number,
  tail: string,
): Promise<{ stored: Buffer; size: number }> {
  const deflate = zlib.createDeflateRaw({ level: 6 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const block = Buffer.from(body.repeat(Math.max(1, Math.floor((1 << 20) / body.length))));
  const perBlock = block.length / Buffer.byteLength(body);
  let left = times;
  let size = 0;
  const write = async (chunk: Buffer) => {
    size += chunk.length;
    if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r));
  };
  await write(Buffer.from(head));
  while (left >= perBlock) {
    await write(block);
    left -= perBlock;
  }
  if (left > 0) await write(Buffer.from(body.repeat(left)));
  await write(Buffer.from(tail));
  deflate.end();
  await done;
  return { stored: Buffer.concat(out), size };
}

const SHEET_PATH = 'xl/worksheets/sheet1.xml';

/**
 * A real two-row .xlsx (as a spreadsheet program saves it) with its sheet part replaced by
 * `sheet`; every other part is kept as it was.
 */
export function workbookWithSheet(sheet: ZipPart | string): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([
      ['Name', 'Phone'],
      ['A', '9876500000'],
    ]),
    'Leads',
  );
  const original = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: false }) as Buffer;
  const container = XLSX.CFB.read(original, { type: 'buffer' });
  const parts: ZipPart[] = [];
  container.FullPaths.forEach((fullPath: string, i: number) => {
    const entry = container.FileIndex[i]!;
    if (entry.type !== 2) return; // directories
    const name = fullPath.replace(/^[^/]*\//, '');
    if (name === SHEET_PATH) return;
    const content = Buffer.from(entry.content as Uint8Array);
    parts.push({ name, stored: content, method: 0, declaredSize: content.length });
  });
  const replacement =
    typeof sheet === 'string'
      ? {
          name: SHEET_PATH,
          stored: Buffer.from(sheet),
          method: 0 as const,
          declaredSize: Buffer.byteLength(sheet),
        }
      : { ...sheet, name: SHEET_PATH };
  return zipArchive([...parts, replacement]);
}

export const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
