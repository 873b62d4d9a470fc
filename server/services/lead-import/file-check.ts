import { messages } from '../../../contract/messages';
import { badRequest, HttpError } from '../../errors';

// Checks made on the raw bytes before any parser sees them (DESIGN.md §4): the content must be
// what the extension says, and a ZIP must not unpack to more than we are willing to inflate.

export type SpreadsheetKind = 'xlsx' | 'xls';

export interface ZipLimits {
  maxUnpackedBytes: number;
  maxEntries: number;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

export const uploadMessages = {
  mismatch: (ext: string) =>
    `The file's content is not an Excel ${ext} spreadsheet, although its name ends in ${ext}.`,
  notWorkbook: 'The file is a ZIP archive but not an Excel workbook.',
  damaged: 'The .xlsx file is damaged or incomplete.',
  tooManyParts: (max: number) => `The .xlsx file has more than ${max} parts; it is not a normal workbook.`,
  unpacksTooLarge: (mb: number) => `The .xlsx file unpacks to more than ${mb} MB, the limit for one upload.`,
};

function damaged(): HttpError {
  return badRequest(uploadMessages.damaged);
}

function u64(view: DataView, at: number): number {
  return Number(view.getBigUint64(at, true));
}

/**
 * Reads the ZIP central directory (never the compressed data) and refuses archives whose
 * declared unpacked size or entry count is past the limits: a zip bomb is stopped before
 * anything is inflated. The parser's worker has a memory cap too, for archives that lie.
 */
export function checkZipDirectory(bytes: Uint8Array, limits: ZipLimits): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw damaged();
  let entries = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (entries === 0xffff || offset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) throw damaged();
    const record = u64(view, locator + 8);
    if (record + 56 > bytes.length || view.getUint32(record, true) !== ZIP64_EOCD) throw damaged();
    entries = u64(view, record + 32);
    offset = u64(view, record + 48);
  }
  if (entries > limits.maxEntries) throw badRequest(uploadMessages.tooManyParts(limits.maxEntries));

  let total = 0;
  let hasContentTypes = false;
  let hasWorkbook = false;
  let p = offset;
  for (let n = 0; n < entries; n++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== CENTRAL_ENTRY) throw damaged();
    let size = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    if (p + 46 + nameLength + extraLength > bytes.length) throw damaged();
    const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLength));
    if (size === 0xffffffff) size = zip64Size(view, p + 46 + nameLength, extraLength);
    total += size;
    if (total > limits.maxUnpackedBytes) {
      throw new HttpError(
        413,
        uploadMessages.unpacksTooLarge(Math.round(limits.maxUnpackedBytes / 1024 / 1024)),
      );
    }
    if (name === '[Content_Types].xml') hasContentTypes = true;
    if (/^xl\/workbook\.(xml|bin)$/i.test(name)) hasWorkbook = true;
    p += 46 + nameLength + extraLength + commentLength;
  }
  if (!hasContentTypes || !hasWorkbook) throw new HttpError(415, uploadMessages.notWorkbook);
}

/** The real unpacked size of an entry whose 32-bit field says "see the ZIP64 extra field". */
function zip64Size(view: DataView, at: number, length: number): number {
  for (let p = at; p + 4 <= at + length; ) {
    const id = view.getUint16(p, true);
    const size = view.getUint16(p + 2, true);
    if (id === 0x0001 && size >= 8) return u64(view, p + 4);
    p += 4 + size;
  }
  throw damaged();
}

/**
 * The spreadsheet kind, from the name's extension (spec §5: .xls or .xlsx) confirmed by the
 * first bytes (xlsx is a ZIP, xls an OLE compound file).
 */
export function checkSpreadsheet(bytes: Uint8Array, filename: string, limits: ZipLimits): SpreadsheetKind {
  const lower = filename.toLowerCase();
  const kind: SpreadsheetKind | null = lower.endsWith('.xlsx')
    ? 'xlsx'
    : lower.endsWith('.xls')
      ? 'xls'
      : null;
  if (!kind) throw new HttpError(415, messages.upload.wrongType);
  if (bytes.length === 0) throw badRequest('The file is empty.');
  if (kind === 'xlsx') {
    if (!startsWith(bytes, ZIP_MAGIC)) throw new HttpError(415, uploadMessages.mismatch('.xlsx'));
    checkZipDirectory(bytes, limits);
  } else if (!startsWith(bytes, OLE_MAGIC)) {
    throw new HttpError(415, uploadMessages.mismatch('.xls'));
  }
  return kind;
}
