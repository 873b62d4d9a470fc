import zlib from 'node:zlib';
import { messages } from '../../../contract/messages';
import { badRequest, HttpError } from '../../errors';

// Checks made on the raw bytes before any parser sees them (DESIGN.md §4): the content must be
// what the extension says, and a ZIP must not unpack to more than we are willing to inflate.

/** `html`: an HTML table saved as .xls, what many property portals export (issue 19). */
export type SpreadsheetKind = 'xlsx' | 'xls' | 'csv' | 'html';

export interface ZipLimits {
  maxUnpackedBytes: number;
  maxEntries: number;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const LOCAL_ENTRY = 0x04034b50;
const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

// An encrypted .xlsx is an OLE compound file holding this stream (MS-OFFCRYPTO §2.3.4).
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/** An Excel workbook saved with a password to open (issue 19). */
export function isEncryptedWorkbook(bytes: Uint8Array): boolean {
  if (!startsWith(bytes, OLE_MAGIC)) return false;
  const buffer = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buffer.includes(ENCRYPTED_PACKAGE);
}

export const uploadMessages = {
  passwordProtected: 'This file is password-protected. Remove the password in Excel and upload it again.',
  notText: 'The .csv file is not text: it looks like a binary file renamed to .csv.',
  mismatch: (ext: string) =>
    `The file's content is not an Excel ${ext} spreadsheet, although its name ends in ${ext}.`,
  notWorkbook: 'The file is a ZIP archive but not an Excel workbook.',
  damaged: 'The .xlsx file is damaged or incomplete.',
  tooManyParts: (max: number) => `The .xlsx file has more than ${max} parts; it is not a normal workbook.`,
  unpacksTooLarge: (mb: number) => `The .xlsx file unpacks to more than ${mb} MB, the limit for one upload.`,
  packedTooTightly: (ratio: number) =>
    `The .xlsx file unpacks to more than ${ratio} times its packed size, which spreadsheets never do; it looks like a zip bomb.`,
  unpacksPastDeclared:
    'The .xlsx file unpacks to more than its own directory declares; it is damaged or a zip bomb.',
};

/**
 * Past this ratio of unpacked to packed size a part is refused (Apache POI's ZipSecureFile uses
 * the same 1:100 minimum inflate ratio). Real sheets pack about 4–16 to 1. Parts under the grace
 * size are not judged: tiny XML parts can pack very well.
 */
export const MAX_INFLATE_RATIO = 100;
const RATIO_GRACE_BYTES = 1024 * 1024;

export interface ZipEntry {
  name: string;
  method: number;
  packedSize: number;
  size: number;
  localOffset: number;
}

function damaged(): HttpError {
  return badRequest(uploadMessages.damaged);
}

function u64(view: DataView, at: number): number {
  return Number(view.getBigUint64(at, true));
}

/** The central directory's entries (never the compressed data); 400 when it is malformed. */
export function readZipDirectory(bytes: Uint8Array, maxEntries: number): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw damaged();
  let count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || offset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) throw damaged();
    const record = u64(view, locator + 8);
    if (record + 56 > bytes.length || view.getUint32(record, true) !== ZIP64_EOCD) throw damaged();
    count = u64(view, record + 32);
    offset = u64(view, record + 48);
  }
  if (count > maxEntries) throw badRequest(uploadMessages.tooManyParts(maxEntries));

  const entries: ZipEntry[] = [];
  let p = offset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== CENTRAL_ENTRY) throw damaged();
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    if (p + 46 + nameLength + extraLength > bytes.length) throw damaged();
    const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLength));
    const zip64 = zip64Sizes(view, p + 46 + nameLength, extraLength);
    let size = view.getUint32(p + 24, true);
    let packedSize = view.getUint32(p + 20, true);
    // ZIP64 keeps the sizes marked 0xffffffff in its extra field, unpacked size first.
    if (size === 0xffffffff) size = zip64.shift() ?? Number.NaN;
    if (packedSize === 0xffffffff) packedSize = zip64.shift() ?? Number.NaN;
    if (Number.isNaN(size) || Number.isNaN(packedSize)) throw damaged();
    const localOffset = view.getUint32(p + 42, true);
    entries.push({ name, method: view.getUint16(p + 10, true), packedSize, size, localOffset });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * Reads the ZIP central directory (never the compressed data) and refuses archives whose
 * declared unpacked size, entry count or packing ratio is past the limits: a zip bomb is
 * stopped before anything is inflated. The parse worker then holds each part it unpacks to what
 * it declared (unpackedData), under a memory cap and a timeout.
 */
export function checkZipDirectory(bytes: Uint8Array, limits: ZipLimits): void {
  let total = 0;
  let hasContentTypes = false;
  let hasWorkbook = false;
  for (const entry of readZipDirectory(bytes, limits.maxEntries)) {
    total += entry.size;
    if (total > limits.maxUnpackedBytes) {
      throw new HttpError(
        413,
        uploadMessages.unpacksTooLarge(Math.round(limits.maxUnpackedBytes / 1024 / 1024)),
      );
    }
    if (entry.size > RATIO_GRACE_BYTES && entry.size > entry.packedSize * MAX_INFLATE_RATIO) {
      throw new HttpError(413, uploadMessages.packedTooTightly(MAX_INFLATE_RATIO));
    }
    if (entry.name === '[Content_Types].xml') hasContentTypes = true;
    if (/^xl\/workbook\.(xml|bin)$/i.test(entry.name)) hasWorkbook = true;
  }
  if (!hasContentTypes || !hasWorkbook) throw new HttpError(415, uploadMessages.notWorkbook);
}

/**
 * A part's unpacked bytes, held to the size the directory declares: 413 past it (a lying
 * directory, the zip-bomb kind checkZipDirectory cannot see), 400 when it ends short or does not
 * inflate. The parser never inflates more than the declared size plus one byte.
 */
export function unpackedData(bytes: Uint8Array, entry: ZipEntry): Buffer {
  const packed = packedData(bytes, entry);
  if (entry.method === 0) {
    if (entry.packedSize !== entry.size) throw damaged();
    return Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
  }
  if (entry.method !== 8) throw damaged();
  let unpacked: Buffer;
  try {
    unpacked = zlib.inflateRawSync(packed, { maxOutputLength: entry.size + 1 });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new HttpError(413, uploadMessages.unpacksPastDeclared);
    throw damaged();
  }
  if (unpacked.length > entry.size) throw new HttpError(413, uploadMessages.unpacksPastDeclared);
  if (unpacked.length !== entry.size) throw damaged();
  return unpacked;
}

/**
 * Every part through unpackedData, before a parser that trusts the declared sizes (SheetJS) reads
 * the archive. The streaming reader (xlsx-rows.ts) unpacks only the parts it reads, the same way.
 */
export function checkInflatedSizes(bytes: Uint8Array, maxEntries: number): void {
  for (const entry of readZipDirectory(bytes, maxEntries)) unpackedData(bytes, entry);
}

/** An entry's bytes as stored (deflated or not), found through its local header. */
export function packedData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_ENTRY) throw damaged();
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.packedSize > bytes.length) throw damaged();
  return bytes.subarray(start, start + entry.packedSize);
}

/** The 64-bit sizes of an entry's ZIP64 extra field, in the order they are stored. */
function zip64Sizes(view: DataView, at: number, length: number): number[] {
  for (let p = at; p + 4 <= at + length; ) {
    const id = view.getUint16(p, true);
    const size = view.getUint16(p + 2, true);
    if (id === 0x0001) {
      const sizes: number[] = [];
      for (let q = p + 4; q + 8 <= p + 4 + size && q + 8 <= at + length; q += 8) sizes.push(u64(view, q));
      return sizes;
    }
    p += 4 + size;
  }
  return [];
}

/** An HTML page with a table, as portals export under an .xls name (checked on the first 64 KB). */
export function isHtmlTable(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 65536))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<') && /<table[\s>]/i.test(head);
}

/**
 * The spreadsheet kind, from the name's extension (spec §5: .xls or .xlsx; issue 19 adds .csv)
 * confirmed by the first bytes (xlsx is a ZIP, xls an OLE compound file or an HTML table, csv
 * text without NUL bytes).
 */
export function checkSpreadsheet(bytes: Uint8Array, filename: string, limits: ZipLimits): SpreadsheetKind {
  const kind = extensionKind(filename);
  if (!kind) throw new HttpError(415, messages.upload.wrongType);
  if (bytes.length === 0) throw badRequest('The file is empty.');
  // Excel saves a workbook with a password to open as an OLE file, whatever its extension.
  if (isEncryptedWorkbook(bytes)) throw badRequest(uploadMessages.passwordProtected);
  if (kind === 'xlsx') {
    if (!startsWith(bytes, ZIP_MAGIC)) throw new HttpError(415, uploadMessages.mismatch('.xlsx'));
    checkZipDirectory(bytes, limits);
    return kind;
  }
  if (kind === 'csv') {
    if (bytes.subarray(0, 65536).includes(0)) throw new HttpError(415, uploadMessages.notText);
    return kind;
  }
  if (startsWith(bytes, OLE_MAGIC)) return 'xls';
  if (isHtmlTable(bytes)) return 'html';
  throw new HttpError(415, uploadMessages.mismatch('.xls'));
}

function extensionKind(filename: string): 'xlsx' | 'xls' | 'csv' | null {
  const lower = filename.toLowerCase();
  if (lower.endsWith('.xlsx')) return 'xlsx';
  if (lower.endsWith('.xls')) return 'xls';
  if (lower.endsWith('.csv')) return 'csv';
  return null;
}
