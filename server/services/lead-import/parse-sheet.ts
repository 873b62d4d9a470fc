import * as XLSX from '@e965/xlsx';
import { HttpError } from '../../errors';
import { checkInflatedSizes } from './file-check';
import { HEADER_SEARCH_ROWS, importAllRows, MAX_COLUMNS, type SheetReadResult, type SheetRow } from './rows';
import { openXlsxSheet, UnsupportedWorkbook } from './xlsx-rows';

export const unreadableMessage = 'The file could not be read as an Excel spreadsheet. Is it damaged?';

export interface SheetSource {
  /** [sheet index, cells] of each row, in order; throws while iterating if the file is damaged. */
  rows: Iterable<readonly [number, SheetRow]>;
  /** How many rows the file says it has (a hint for planning the import), 0 when unknown. */
  expectedRows: number;
  /** True once iterated if the reader stopped at its row cap with more rows in the file. */
  truncated?: () => boolean;
}

export type OpenedSheet = ({ ok: true } & SheetSource) | { ok: false; status: number; message: string };

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
/** The route has refused archives with more parts than its limit before the worker sees them. */
const MAX_ZIP_ENTRIES = 100_000;

function refusal(error: unknown): { ok: false; status: number; message: string } {
  if (error instanceof HttpError) return { ok: false, status: error.status, message: error.message };
  return { ok: false, status: 400, message: unreadableMessage };
}

/**
 * The first sheet's rows. An .xlsx is read row by row as its XML is parsed (xlsx-rows.ts), so
 * the import inserts while it reads; an .xls, or an .xlsx that reader does not handle, is read
 * whole by SheetJS first.
 */
export function openFirstSheet(bytes: Uint8Array, maxRows: number): OpenedSheet {
  if (ZIP_MAGIC.every((b, i) => bytes[i] === b)) {
    try {
      const sheet = openXlsxSheet(bytes, { maxEntries: MAX_ZIP_ENTRIES, maxColumns: MAX_COLUMNS });
      return { ok: true, rows: sheet.rows, expectedRows: sheet.declaredRows };
    } catch (error) {
      if (!(error instanceof UnsupportedWorkbook)) return refusal(error);
    }
    // SheetJS trusts the directory's sizes: hold every part to them first.
    try {
      checkInflatedSizes(bytes, MAX_ZIP_ENTRIES);
    } catch (error) {
      return refusal(error);
    }
  }
  const read = readWholeSheet(bytes, maxRows);
  if (!read.ok) return read;
  const { data, truncated } = read;
  return { ok: true, rows: data.entries(), expectedRows: data.length, truncated: () => truncated };
}

/** How SheetJS reads for the import: rows as dense arrays of {t, v}, values only. */
export const SHEETJS_READ = {
  dense: true,
  cellText: false,
  cellNF: false,
  cellHTML: false,
  cellFormula: false,
  cellStyles: false,
  cellDates: false,
} as const satisfies XLSX.ParsingOptions;

/**
 * Reads the first sheet with SheetJS, values only (no number formats, styles, formulas or HTML),
 * and at most the row limit plus room for a header: a file with a million rows costs no more than
 * one at the limit.
 */
function readWholeSheet(
  bytes: Uint8Array,
  maxRows: number,
): { ok: true; data: SheetRow[]; truncated: boolean } | { ok: false; status: number; message: string } {
  let sheet: XLSX.WorkSheet | undefined;
  try {
    const buffer = Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const book = XLSX.read(buffer, {
      ...SHEETJS_READ,
      type: 'buffer',
      sheets: 0,
      sheetRows: maxRows + HEADER_SEARCH_ROWS + 1,
    });
    sheet = book.Sheets[book.SheetNames[0] ?? ''];
  } catch {
    return { ok: false, status: 400, message: unreadableMessage };
  }
  const data = ((sheet as { '!data'?: SheetRow[] } | undefined)?.['!data'] ?? []) as SheetRow[];
  const truncated = sheet?.['!fullref'] !== undefined && sheet['!fullref'] !== sheet['!ref'];
  return { ok: true, data, truncated };
}

/** The whole pipeline on this thread: read, lay out, validate (tests). */
export function parseSpreadsheet(
  bytes: Uint8Array,
  options: { maxRows: number; utcOffsetMinutes: number },
): { result: SheetReadResult } {
  const sheet = openFirstSheet(bytes, options.maxRows);
  if (!sheet.ok) return { result: sheet };
  try {
    return { result: importAllRows(sheet.rows, { ...options, truncated: sheet.truncated }) };
  } catch {
    return { result: { ok: false, status: 400, message: unreadableMessage } };
  }
}
