import * as XLSX from '@e965/xlsx';
import { HEADER_SEARCH_ROWS, readSheetRows, type SheetReadResult, type SheetRow } from './rows';

export const unreadableMessage = 'The file could not be read as an Excel spreadsheet. Is it damaged?';

export type FirstSheet =
  | { ok: true; data: SheetRow[]; truncated: boolean }
  | { ok: false; status: number; message: string };

/**
 * Reads the first sheet with SheetJS, values only (no number formats, styles, formulas or HTML),
 * and at most the row limit plus room for a header: a file with a million rows costs no more than
 * one at the limit.
 */
export function readFirstSheet(bytes: Uint8Array, maxRows: number): FirstSheet {
  let sheet: XLSX.WorkSheet | undefined;
  try {
    const buffer = Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const book = XLSX.read(buffer, {
      type: 'buffer',
      dense: true,
      sheets: 0,
      sheetRows: maxRows + HEADER_SEARCH_ROWS + 1,
      cellText: false,
      cellNF: false,
      cellHTML: false,
      cellFormula: false,
      cellStyles: false,
      cellDates: false,
    });
    sheet = book.Sheets[book.SheetNames[0] ?? ''];
  } catch {
    return { ok: false, status: 400, message: unreadableMessage };
  }
  const data = ((sheet as { '!data'?: SheetRow[] } | undefined)?.['!data'] ?? []) as SheetRow[];
  const truncated = sheet?.['!fullref'] !== undefined && sheet['!fullref'] !== sheet['!ref'];
  return { ok: true, data, truncated };
}

/** The whole pipeline on this thread: read, lay out, validate (tests and the benchmark). */
export function parseSpreadsheet(
  bytes: Uint8Array,
  options: { maxRows: number; utcOffsetMinutes: number },
): { result: SheetReadResult; data: readonly SheetRow[] } {
  const sheet = readFirstSheet(bytes, options.maxRows);
  if (!sheet.ok) return { result: sheet, data: [] };
  return { result: readSheetRows(sheet.data, { ...options, truncated: sheet.truncated }), data: sheet.data };
}
