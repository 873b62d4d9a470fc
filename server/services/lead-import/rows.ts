import { normalisePhone } from '../../../contract/leads-list';
import type { Zone } from '../agency-time';
import { type ColumnMap, type LeadField, mapColumns, missingColumns, missingColumnsMessage } from './columns';
import { formatSerial, parseVisitDate } from './dates';

// Row rules of DESIGN.md §4, applied to a sheet's cells. Pure: the parse worker runs it, and
// the tests and the benchmark call it directly.

/** A SheetJS cell as read with `dense: true` and no text formatting. */
export interface Cell {
  t: string;
  v?: unknown;
}
export type SheetRow = readonly (Cell | undefined)[] | undefined;

/** A valid row, normalised for insertion. `row` is the sheet's 0-based row index. */
export interface ImportRow {
  row: number;
  name: string;
  email: string;
  phone: string;
  visitDateTime: string | null;
  configuration: string;
  interestedIn: string;
  siteVisit: string;
  location: string;
  /**
   * What the import could not use as it was, kept with the lead (issue 19): "Visit date as
   * written: Next week", a cut name. Empty when the row was read cleanly; not empty is a warning.
   */
  note: string;
}

export interface Rejection {
  row: number;
  reason: string;
}

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

export const rowMessages = {
  noRows: 'The spreadsheet has no data rows.',
  tooManyRows: (max: number) =>
    `The spreadsheet has more than ${max.toLocaleString('en-US')} rows, the limit for one upload. Split it into smaller files.`,
  nameRequired: 'Name is required',
  phoneRequired: 'Phone is required',
  phoneRule: 'Phone must have 10 digits',
  emailInvalid: 'Email is not a valid address',
  dateInvalid: 'Visit DateTime is not a valid date',
  tooLong: (label: string, max: number) => `${label} is longer than ${max} characters`,
  // Notes kept with a lead the import took although a field was unusable (issue 19).
  dateKept: (text: string) => `Visit date as written: ${text}`,
  emailKept: (text: string) => `Email as written: ${text}`,
  cut: (label: string, length: number) => `${label} was ${length} characters, cut to the first ${MAX_TEXT}`,
  noName: 'The row had no name',
  duplicateInFile: (row: number) => `Duplicate phone: same as row ${row} of this file`,
  tooManyColumns: (max: number) =>
    `The spreadsheet has cells past column ${max} (IV); a leads sheet needs far fewer. Delete the columns it does not use.`,
};

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// The header may sit below a title line or two; it is looked for in the first rows only.
export const HEADER_SEARCH_ROWS = 20;
/**
 * Widest sheet read (the .xls format's own limit, column IV). One cell far right on every row
 * would otherwise make each row, and the rejected-rows file, 16,384 columns wide.
 */
export const MAX_COLUMNS = 256;
/** Longest name, configuration, campaign or location kept; longer text is cut (issue 19). */
export const MAX_TEXT = 200;
const MAX_EMAIL = 254;
/** How much of an unusable cell a lead's note keeps. */
const MAX_NOTE_QUOTE = 200;
/** What exports write for "no email" (normalised: lower case, no spaces); read as blank. */
const BLANK_LIKE = new Set([
  'na',
  'n/a',
  'n.a.',
  'n.a',
  '-',
  '--',
  '---',
  '.',
  'none',
  'nil',
  'null',
  'noemail',
  'notavailable',
  '0',
]);

/**
 * A cell as text. A leading apostrophe before = + - @ is what our own rejected-rows file adds
 * to neutralise formulas, so a corrected file uploads again unchanged.
 */
export function cellText(cell: Cell | undefined): string {
  if (!cell || cell.v === undefined || cell.v === null) return '';
  switch (cell.t) {
    case 'e':
      return '';
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE';
    case 'n':
      return String(cell.v);
    default: {
      let text = String(cell.v).trim();
      // NUL cannot be typed into a cell; dropping it lets the worker join columns with it.
      if (text.includes('\u0000')) text = text.replaceAll('\u0000', '');
      return text.charCodeAt(0) === 39 && /^'[=+\-@]/.test(text) ? text.slice(1) : text;
    }
  }
}

/** How a rejected row shows a cell: dates read from a serial as "YYYY-MM-DD HH:MM". */
export function displayText(cell: Cell | undefined, isDateColumn: boolean): string {
  if (cell?.t === 'e') return '#ERROR';
  if (isDateColumn && cell?.t === 'n' && typeof cell.v === 'number') return formatSerial(cell.v);
  return cellText(cell);
}

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

function validate(
  row: SheetRow,
  r: number,
  columns: ColumnMap,
  zone: Zone,
  monthFirst = false,
): ImportRow | Rejection {
  const text = (field: LeadField) => {
    const i = columns[field];
    return i === undefined ? '' : cellText(row?.[i]);
  };
  // Issue 19: a row is refused only when it cannot be worked (no callable phone). Anything else
  // that cannot be used as written is kept in the lead's note and counted as a warning.
  const rawPhone = text('phone');
  const phone = rawPhone === '' ? null : normalisePhone(rawPhone);
  if (rawPhone === '') return { row: r, reason: rowMessages.phoneRequired };
  if (phone === null) return { row: r, reason: rowMessages.phoneRule };

  const notes: string[] = [];
  const quote = (value: string) =>
    value.length > MAX_NOTE_QUOTE ? `${value.slice(0, MAX_NOTE_QUOTE)}…` : value;
  const fitted = (field: LeadField, label: string) => {
    const value = text(field);
    if (value.length <= MAX_TEXT) return value;
    notes.push(rowMessages.cut(label, value.length));
    return value.slice(0, MAX_TEXT);
  };

  const name = fitted('name', 'Name');
  if (name === '') notes.push(rowMessages.noName);

  let email = text('email');
  if (BLANK_LIKE.has(email.toLowerCase().replace(/\s+/g, ''))) email = '';
  else if (email !== '' && (email.length > MAX_EMAIL || !emailPattern.test(email))) {
    notes.push(rowMessages.emailKept(quote(email)));
    email = '';
  }

  const dateCell = columns.visitDateTime === undefined ? undefined : row?.[columns.visitDateTime];
  const date = parseVisitDate(
    dateCell?.t === 'n' ? (dateCell.v as number) : cellText(dateCell),
    zone,
    monthFirst,
  );
  if (!date.ok) notes.push(rowMessages.dateKept(quote(displayText(dateCell, true))));

  const configuration = fitted('configuration', 'Configuration');
  const interestedIn = fitted('interestedIn', 'Interested In');
  return {
    row: r,
    name,
    email,
    phone,
    visitDateTime: date.ok ? date.iso : null,
    // Spec §3: interestedIn is also used as the configuration; either column fills both.
    configuration: configuration || interestedIn,
    interestedIn: interestedIn || configuration,
    siteVisit: fitted('siteVisit', 'Site Visit'),
    location: fitted('location', 'Location'),
    note: notes.join('; '),
  };
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
      const result = validate(data[r], r, layout!.columns, options.zone, mapping.monthFirst);
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
