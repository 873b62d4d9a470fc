import type { Zone } from '../agency-time';
import { type ColumnMap, mapColumns, missingColumns, missingColumnsMessage } from './columns';
import {
  cellText,
  HEADER_SEARCH_ROWS,
  type ImportRow,
  MAX_COLUMNS,
  type Rejection,
  rowMessages,
  type SheetRow,
  validateRow,
} from './row-rules';

// A sheet's rows as the import reads them (DESIGN.md §4): the header found, then every row below
// it checked by the row rules (row-rules.ts) and sent on in chunks, repeats of a phone rejected.

function isBlank(row: SheetRow): boolean {
  if (!row) return true;
  for (const cell of row) {
    if (!cell || cell.v === undefined || cell.v === null || cell.t === 'e') continue;
    if (typeof cell.v !== 'string' || cell.v.trim() !== '') return false;
  }
  return true;
}

function findHeader(
  data: readonly SheetRow[],
): { index: number; columns: ColumnMap } | { missing: string[] } | null {
  let first: string[] | null = null;
  const limit = Math.min(data.length, HEADER_SEARCH_ROWS);
  for (let r = 0; r < limit; r++) {
    const row = data[r];
    if (isBlank(row)) continue;
    const columns = mapColumns(Array.from(row!, (c) => cellText(c)));
    if (missingColumns(columns).length === 0) return { index: r, columns };
    first ??= missingColumns(columns);
  }
  return first ? { missing: first } : null;
}

/** Where the data is: the header row and its columns. */
export interface SheetLayout {
  headerRow: number;
  columns: ColumnMap;
}

export type ImportEvent =
  /** The header was found: rows follow. `expectedRows` is a hint (a sheet's declared size). */
  | { type: 'started'; expectedRows: number; layout: SheetLayout; header: string[] }
  | { type: 'chunk'; valid: ImportRow[]; rejected: Rejection[] };

/**
 * What the import wizard's admin chose (issue 19): the header row and each field's column, in
 * place of the detected ones, and dates written month first.
 */
export interface RowMapping {
  headerRow?: number;
  columns?: ColumnMap;
  monthFirst?: boolean;
  /**
   * The wizard's preview of a sheet whose headers name no Name or Phone column: read it anyway,
   * under its first row that is not blank, so the admin can say which columns they are.
   */
  lenient?: boolean;
}

/** `missing`: the required columns the sheet lacks (another sheet may have them). */
export type Refusal = { ok: false; status: number; message: string; missing?: string[] };

export type SheetReadResult =
  | {
      ok: true;
      headerRow: number;
      columns: ColumnMap;
      totalRows: number;
      valid: ImportRow[];
      rejected: Rejection[];
    }
  | Refusal;

export interface ImportedSheet {
  ok: true;
  layout: SheetLayout;
  totalRows: number;
  /** Every row read, by sheet index (the rejected-rows file copies cells from here). */
  data: SheetRow[];
  rejected: Rejection[];
  /** How many of `rejected` repeat a phone of an earlier row. */
  duplicatesInFile: number;
}

/**
 * Turns rows, as a reader yields them ([sheet index, cells], in sheet order), into the import's
 * events: the header is looked for in the first HEADER_SEARCH_ROWS rows, then every non-blank
 * row below it is validated and sent on in chunks of `chunkRows` while later rows are still
 * being read. Repeats of a phone seen earlier in the file are rejected (the first valid row with
 * a phone wins). Returns the refusal instead when the sheet has no header, no data rows, is too
 * wide or has more than `maxRows` rows; a refusal may come after chunks were sent, so the
 * caller inserts in one transaction and rolls it back.
 */
export function* importRows(
  rows: Iterable<readonly [number, SheetRow]>,
  options: {
    maxRows: number;
    zone: Zone;
    chunkRows: number;
    expectedRows?: number;
    /** The reader stopped early at its row cap (SheetJS `sheetRows`): more rows may follow. */
    truncated?: () => boolean;
    mapping?: RowMapping;
  },
): Generator<ImportEvent, ImportedSheet | Refusal> {
  const mapping = options.mapping ?? {};
  const data: SheetRow[] = [];
  const rejected: Rejection[] = [];
  const firstRowOfPhone = new Map<string, number>();
  let layout: SheetLayout | null = null;
  let pending: number[] = [];
  let totalRows = 0;
  let last = -1;
  let lastDataRow = -1;
  let duplicatesInFile = 0;

  const tooMany: Refusal = { ok: false, status: 413, message: rowMessages.tooManyRows(options.maxRows) };

  function check(): { valid: ImportRow[]; rejected: Rejection[] } {
    const valid: ImportRow[] = [];
    const chunkRejected: Rejection[] = [];
    for (const r of pending) {
      const result = validateRow(data[r], r, layout!.columns, options.zone, mapping.monthFirst);
      if ('reason' in result) {
        chunkRejected.push(result);
        continue;
      }
      const earlier = firstRowOfPhone.get(result.phone);
      if (earlier !== undefined) {
        chunkRejected.push({ row: r, reason: rowMessages.duplicateInFile(earlier + 1) });
        duplicatesInFile += 1;
        continue;
      }
      firstRowOfPhone.set(result.phone, r);
      valid.push(result);
    }
    pending = [];
    rejected.push(...chunkRejected);
    return { valid, rejected: chunkRejected };
  }

  /** Queues a data row; false when it is one past the limit. */
  function queue(r: number): boolean {
    if (isBlank(data[r])) return true;
    if (totalRows === options.maxRows) return false;
    totalRows += 1;
    lastDataRow = r;
    pending.push(r);
    return true;
  }

  function locate(): SheetLayout | Refusal {
    if (mapping.columns) return chosen(mapping.columns);
    const header = findHeader(data);
    if (!header) return { ok: false, status: 400, message: rowMessages.noRows };
    if ('missing' in header && mapping.lenient) {
      const headerRow = data.findIndex((row) => !isBlank(row));
      return { headerRow, columns: mapColumns(Array.from(data[headerRow]!, (c) => cellText(c))) };
    }
    if ('missing' in header)
      return {
        ok: false,
        status: 400,
        message: missingColumnsMessage(header.missing),
        missing: header.missing,
      };
    return { headerRow: header.index, columns: header.columns };
  }

  /** The admin's columns, under the row they chose or the one found (else the first not blank). */
  function chosen(columns: ColumnMap): SheetLayout | Refusal {
    const missing = missingColumns(columns);
    if (missing.length > 0)
      return { ok: false, status: 400, message: missingColumnsMessage(missing), missing };
    let headerRow = mapping.headerRow;
    if (headerRow === undefined) {
      const found = findHeader(data);
      headerRow = found && 'index' in found ? found.index : data.findIndex((row) => !isBlank(row));
    }
    return { headerRow: Math.max(0, headerRow), columns };
  }

  const started = (found: SheetLayout): ImportEvent => ({
    type: 'started',
    expectedRows: options.expectedRows ?? 0,
    layout: found,
    header: Array.from(data[found.headerRow] ?? [], (c) => cellText(c)),
  });

  for (const [index, row] of rows) {
    if (index <= last) throw new Error(`row ${index + 1} comes after row ${last + 1}`);
    last = index;
    if ((row?.length ?? 0) > MAX_COLUMNS) {
      return { ok: false, status: 413, message: rowMessages.tooManyColumns(MAX_COLUMNS) };
    }
    data[index] = row;
    if (!layout) {
      if (index < HEADER_SEARCH_ROWS) continue;
      const found = locate();
      if ('ok' in found) return found;
      layout = found;
      yield started(layout);
      for (let r = layout.headerRow + 1; r <= index; r++) if (!queue(r)) return tooMany;
    } else if (!queue(index)) {
      return tooMany;
    }
    if (pending.length >= options.chunkRows) yield { type: 'chunk', ...check() };
  }
  if (!layout) {
    const found = locate();
    if ('ok' in found) return found;
    layout = found;
    yield started(layout);
    for (let r = layout.headerRow + 1; r < data.length; r++) if (!queue(r)) return tooMany;
  }
  if (options.truncated?.() && lastDataRow === data.length - 1) return tooMany;
  if (totalRows === 0) return { ok: false, status: 400, message: rowMessages.noRows };
  while (pending.length > 0) {
    const rest = pending.slice(options.chunkRows);
    pending = pending.slice(0, options.chunkRows);
    yield { type: 'chunk', ...check() };
    pending = rest;
  }
  return { ok: true, layout, totalRows, data, rejected, duplicatesInFile };
}

/** Every event of importRows at once (tests, and reading a sheet on this thread). */
export function importAllRows(
  rows: Iterable<readonly [number, SheetRow]>,
  options: { maxRows: number; zone: Zone; truncated?: () => boolean },
): SheetReadResult {
  const valid: ImportRow[] = [];
  const events = importRows(rows, { ...options, chunkRows: 1000 });
  for (;;) {
    const next = events.next();
    if (next.done) {
      const sheet = next.value;
      if (!sheet.ok) return sheet;
      return {
        ok: true,
        headerRow: sheet.layout.headerRow,
        columns: sheet.layout.columns,
        totalRows: sheet.totalRows,
        valid,
        rejected: sheet.rejected,
      };
    }
    if (next.value.type === 'chunk') valid.push(...next.value.valid);
  }
}
