import zlib from 'node:zlib';
import * as XLSX from '@e965/xlsx';

// Hostile spreadsheets, built in the test the way an attacker would: a real workbook whose
// sheet part is swapped for something else, packed in a ZIP whose directory says what we choose.

export interface ZipPart {
  name: string;
  /** The bytes as stored in the archive (deflated when `method` is 8). */
  stored: Buffer;
  method: 0 | 8;
  /** The unpacked size the local header and the central directory declare. */
  declaredSize: number;
  /** The CRC-32 of the unpacked bytes, for readers that check it (SheetJS); 0 when left out. */
  crc?: number;
}

/** A ZIP archive of `parts`, local headers and directory agreeing on every declared size. */
export function zipArchive(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(part.method, 8);
    local.writeUInt32LE(part.crc ?? 0, 14);
    local.writeUInt32LE(part.stored.length, 18);
    local.writeUInt32LE(part.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(part.method, 10);
    entry.writeUInt32LE(part.crc ?? 0, 16);
    entry.writeUInt32LE(part.stored.length, 20);
    entry.writeUInt32LE(part.declaredSize, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, part.stored);
    central.push(entry, name);
    offset += 30 + name.length + part.stored.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

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
