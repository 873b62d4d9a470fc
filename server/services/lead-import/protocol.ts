import type { Zone } from '../agency-time';
import type { ColumnMap } from './columns';
import type { SpreadsheetKind } from './file-check';
import type { ImportRow, Rejection } from './row-rules';
import type { RowMapping } from './rows';

/** Where the header is and what each column was read as: the wizard's preview shows it. */
export interface FoundLayout {
  headerRow: number;
  header: string[];
  columns: ColumnMap;
  /** The sheet's index in the workbook. */
  sheetIndex: number;
}

// Messages between the import service and its parse worker. A parse answers `started` (the
// header was found), then `rows` chunk by chunk as they are read and validated, then `parsed`;
// or `failed`, before `started` or after any number of chunks.

export type ToWorker =
  | {
      type: 'parse';
      file: Uint8Array;
      maxRows: number;
      zone: Zone;
      chunkRows: number;
      kind?: SpreadsheetKind;
      sheet?: number;
      mapping?: RowMapping;
    }
  | { type: 'invalid-file'; extra: Rejection[] };

export type FromWorker =
  | { type: 'started'; expectedRows: number; sheet: SheetChoice; layout: FoundLayout }
  | { type: 'rows'; valid: PackedRows }
  | { type: 'parsed'; totalRows: number; invalidCount: number; duplicatesInFile: number }
  | { type: 'failed'; status: number; message: string }
  | { type: 'invalid-file'; file: Uint8Array };

const TEXT_FIELDS = [
  'name',
  'email',
  'phone',
  'visitDateTime',
  'configuration',
  'interestedIn',
  'siteVisit',
  'location',
  'note',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];

/** Which sheet of the workbook was read, and the sheets it has (issue 19). */
export interface SheetChoice {
  name: string;
  sheets: string[];
}

// NUL never occurs in cell text (rows.ts strips it), so it can join a column into one string.
const SEPARATOR = '\u0000';

/**
 * Valid rows as one string per column. Copying 100,000 row objects between threads costs the
 * API thread about half a second; eight joined strings cost a few milliseconds to copy and
 * under a tenth of a second to split.
 */
export interface PackedRows {
  count: number;
  rows: Int32Array;
  text: Record<TextField, string>;
}

/** Valid rows column by column, as the import inserts them. */
export type RowColumns = { count: number; row: Int32Array } & Record<TextField, string[]>;

export function packRows(valid: readonly ImportRow[]): PackedRows {
  const text = {} as Record<TextField, string>;
  for (const field of TEXT_FIELDS) text[field] = valid.map((r) => r[field] ?? '').join(SEPARATOR);
  return { count: valid.length, rows: Int32Array.from(valid, (r) => r.row), text };
}

export function unpackRows(packed: PackedRows): RowColumns {
  const columns = { count: packed.count, row: packed.rows } as RowColumns;
  for (const field of TEXT_FIELDS)
    columns[field] = packed.count === 0 ? [] : packed.text[field].split(SEPARATOR);
  return columns;
}
