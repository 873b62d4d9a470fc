import * as XLSX from '@e965/xlsx';
import { HttpError } from '../../errors';
import type { Zone } from '../agency-time';
import { openCsv } from './csv-rows';
import { checkInflatedSizes, isEncryptedWorkbook, type SpreadsheetKind, uploadMessages } from './file-check';
import type { SheetChoice } from './protocol';
import { HEADER_SEARCH_ROWS, type ImportRow, MAX_COLUMNS, rowMessages, type SheetRow } from './row-rules';
import {
  type ImportEvent,
  type ImportedSheet,
  importRows,
  type Refusal,
  type RowMapping,
  type SheetReadResult,
} from './rows';
import { openXlsxSheet } from './xlsx-rows';
import { UnsupportedWorkbook } from './xlsx-xml';

export const unreadableMessage = 'The file could not be read as an Excel spreadsheet. Is it damaged?';
export const passwordMessage = uploadMessages.passwordProtected;

export interface SheetSource {
  /** [sheet index, cells] of each row, in order; throws while iterating if the file is damaged. */
  rows: Iterable<readonly [number, SheetRow]>;
  /** How many rows the file says it has (a hint for planning the import), 0 when unknown. */
  expectedRows: number;
  /** True once iterated if the reader stopped at its row cap with more rows in the file. */
  truncated?: () => boolean;
  /** Every sheet's name, in workbook order. */
  sheetNames: string[];
}

export type OpenedSheet = ({ ok: true } & SheetSource) | { ok: false; status: number; message: string };

/** The one "sheet" of a .csv, as the answer's `sheet` names it. */
export const CSV_SHEET = 'CSV';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
/** The route has refused archives with more parts than its limit before the worker sees them. */
const MAX_ZIP_ENTRIES = 100_000;

function refusal(error: unknown): { ok: false; status: number; message: string } {
  if (error instanceof HttpError) return { ok: false, status: error.status, message: error.message };
  return { ok: false, status: 400, message: unreadableMessage };
}

/**
 * One sheet's rows (the first unless told). An .xlsx is read row by row as its XML is parsed
 * (xlsx-rows.ts), so the import inserts while it reads; an .xls, or an .xlsx that reader does not
 * handle, is read whole by SheetJS first.
 */
export function openSheet(
  bytes: Uint8Array,
  maxRows: number,
  index = 0,
  kind?: SpreadsheetKind,
): OpenedSheet {
  if (isEncryptedWorkbook(bytes)) return { ok: false, status: 400, message: passwordMessage };
  if (kind === 'csv') {
    if (index > 0) return { ok: false, status: 400, message: unreadableMessage };
    const csv = openCsv(bytes);
    return { ok: true, rows: csv.rows, expectedRows: csv.expectedRows, sheetNames: [CSV_SHEET] };
  }
  if (ZIP_MAGIC.every((b, i) => bytes[i] === b)) {
    try {
      const sheet = openXlsxSheet(bytes, {
        maxEntries: MAX_ZIP_ENTRIES,
        maxColumns: MAX_COLUMNS,
        sheet: index,
      });
      return { ok: true, rows: sheet.rows, expectedRows: sheet.declaredRows, sheetNames: sheet.sheetNames };
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
  const read = readWholeSheet(bytes, maxRows, index, kind === 'html');
  if (!read.ok) return read;
  const { data, truncated, sheetNames } = read;
  return {
    ok: true,
    rows: data.entries(),
    expectedRows: data.length,
    truncated: () => truncated,
    sheetNames,
  };
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
  index: number,
  html = false,
):
  | { ok: true; data: SheetRow[]; truncated: boolean; sheetNames: string[] }
  | { ok: false; status: number; message: string } {
  let sheet: XLSX.WorkSheet | undefined;
  let sheetNames: string[] = [];
  try {
    const buffer = Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const book = XLSX.read(buffer, {
      ...SHEETJS_READ,
      type: 'buffer',
      // An HTML table's cells are text: SheetJS would otherwise read "05/01/2026" month-first,
      // before the import's day-first rule sees it.
      raw: html,
      sheets: index,
      sheetRows: maxRows + HEADER_SEARCH_ROWS + 1,
    });
    sheetNames = book.SheetNames;
    sheet = book.Sheets[book.SheetNames[index] ?? ''];
  } catch (error) {
    // SheetJS: "File is password-protected" (an .xls with a FILEPASS record).
    if (error instanceof Error && /password/i.test(error.message))
      return { ok: false, status: 400, message: passwordMessage };
    return { ok: false, status: 400, message: unreadableMessage };
  }
  const data = ((sheet as { '!data'?: SheetRow[] } | undefined)?.['!data'] ?? []) as SheetRow[];
  const truncated = sheet?.['!fullref'] !== undefined && sheet['!fullref'] !== sheet['!ref'];
  return { ok: true, data, truncated, sheetNames };
}

type Events = Generator<ImportEvent, ImportedSheet | Refusal>;

export type OpenedLeadSheet =
  | {
      ok: true;
      events: Events;
      first: IteratorResult<ImportEvent, ImportedSheet | Refusal>;
      sheet: SheetChoice;
    }
  | Refusal;

/** A refusal that another sheet of the workbook might not earn: no Name/Phone header, no rows. */
function wrongSheet(refusal: Refusal): boolean {
  return refusal.missing !== undefined || refusal.message === rowMessages.noRows;
}

function sheetList(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}

/**
 * The sheet that holds the leads (issue 19): the first whose header has Name and Phone. The
 * events are started (`first` is their first step), so a sheet is only ever read once. When no
 * sheet has them, the refusal names the sheets looked at.
 */
export function openLeadSheet(
  bytes: Uint8Array,
  options: {
    maxRows: number;
    zone: Zone;
    chunkRows: number;
    kind?: SpreadsheetKind;
    /** The sheet the admin chose in the import wizard: only that one is read. */
    sheet?: number;
    mapping?: RowMapping;
  },
): OpenedLeadSheet {
  let firstRefusal: Refusal | null = null;
  let names: string[] = [];
  const chosen = options.sheet;
  /** No sheet has Name and Phone headers: refuse, or for the wizard read the first anyway. */
  const fallBack = (refusal: Refusal): OpenedLeadSheet => {
    if (!options.mapping?.lenient || refusal.missing === undefined) return namedRefusal(refusal, names);
    const index = chosen ?? 0;
    const opened = openSheet(bytes, options.maxRows, index, options.kind);
    if (!opened.ok) return opened;
    const events = importRows(opened.rows, {
      ...options,
      expectedRows: opened.expectedRows,
      truncated: opened.truncated,
    });
    try {
      const first = events.next();
      if (first.done && !first.value.ok) return first.value;
      return { ok: true, events, first, sheet: { name: names[index] ?? '', sheets: names } };
    } catch {
      return { ok: false, status: 400, message: unreadableMessage };
    }
  };
  for (let index = chosen ?? 0; ; index++) {
    const opened = openSheet(bytes, options.maxRows, index, options.kind);
    if (!opened.ok) return firstRefusal === null ? opened : fallBack(firstRefusal);
    names = opened.sheetNames;
    const events = importRows(opened.rows, {
      ...options,
      // Leniency only once no sheet has the headers (below).
      mapping: { ...options.mapping, lenient: false },
      expectedRows: opened.expectedRows,
      truncated: opened.truncated,
    });
    let first: IteratorResult<ImportEvent, ImportedSheet | Refusal>;
    try {
      first = events.next();
    } catch {
      return { ok: false, status: 400, message: unreadableMessage };
    }
    if (first.done && !first.value.ok && wrongSheet(first.value)) {
      firstRefusal ??= first.value;
      if (chosen === undefined && index + 1 < names.length) continue;
      return fallBack(firstRefusal);
    }
    return { ok: true, events, first, sheet: { name: names[index] ?? '', sheets: names } };
  }
}

function namedRefusal(refusal: Refusal, names: readonly string[]): Refusal {
  if (names.length === 0) return refusal;
  const where =
    names.length === 1
      ? ` Sheet ${sheetList(names)} was read.`
      : ` Every sheet was looked at: ${sheetList(names)}.`;
  return { ...refusal, message: `${refusal.message}${where}` };
}

/** The whole pipeline on this thread: read, lay out, validate (tests). */
export function parseSpreadsheet(
  bytes: Uint8Array,
  options: { maxRows: number; zone: Zone; kind?: SpreadsheetKind },
): { result: SheetReadResult; sheet?: SheetChoice } {
  const opened = openLeadSheet(bytes, { ...options, chunkRows: 1000 });
  if (!opened.ok) return { result: opened };
  const valid: ImportRow[] = [];
  let step = opened.first;
  try {
    for (;;) {
      if (step.done) {
        const sheet = step.value;
        if (!sheet.ok) return { result: sheet, sheet: opened.sheet };
        return {
          result: {
            ok: true,
            headerRow: sheet.layout.headerRow,
            columns: sheet.layout.columns,
            totalRows: sheet.totalRows,
            valid,
            rejected: sheet.rejected,
          },
          sheet: opened.sheet,
        };
      }
      if (step.value.type === 'chunk') valid.push(...step.value.valid);
      step = opened.events.next();
    }
  } catch {
    return { result: { ok: false, status: 400, message: unreadableMessage } };
  }
}
