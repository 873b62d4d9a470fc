import { normalisePhone } from '../../../contract/leads-list';
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
  | { ok: false; status: number; message: string };

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
const MAX_TEXT = 200;
const MAX_EMAIL = 254;

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
  utcOffsetMinutes: number,
): ImportRow | Rejection {
  const text = (field: LeadField) => {
    const i = columns[field];
    return i === undefined ? '' : cellText(row?.[i]);
  };
  const reasons: string[] = [];
  const name = text('name');
  if (name === '') reasons.push(rowMessages.nameRequired);
  else if (name.length > MAX_TEXT) reasons.push(rowMessages.tooLong('Name', MAX_TEXT));

  const rawPhone = text('phone');
  const phone = rawPhone === '' ? null : normalisePhone(rawPhone);
  if (rawPhone === '') reasons.push(rowMessages.phoneRequired);
  else if (phone === null) reasons.push(rowMessages.phoneRule);

  const email = text('email');
  if (email.length > MAX_EMAIL) reasons.push(rowMessages.tooLong('Email', MAX_EMAIL));
  else if (email !== '' && !emailPattern.test(email)) reasons.push(rowMessages.emailInvalid);

  const dateCell = columns.visitDateTime === undefined ? undefined : row?.[columns.visitDateTime];
  const date = parseVisitDate(
    dateCell?.t === 'n' ? (dateCell.v as number) : cellText(dateCell),
    utcOffsetMinutes,
  );
  if (!date.ok) reasons.push(rowMessages.dateInvalid);

  const optional: [LeadField, string][] = [
    ['configuration', 'Configuration'],
    ['interestedIn', 'Interested In'],
    ['siteVisit', 'Site Visit'],
    ['location', 'Location'],
  ];
  for (const [field, label] of optional) {
    if (text(field).length > MAX_TEXT) reasons.push(rowMessages.tooLong(label, MAX_TEXT));
  }

  if (reasons.length > 0) return { row: r, reason: reasons.join('; ') };
  const configuration = text('configuration');
  const interestedIn = text('interestedIn');
  return {
    row: r,
    name,
    email,
    phone: phone!,
    visitDateTime: date.ok ? date.iso : null,
    // Spec §3: interestedIn is also used as the configuration; either column fills both.
    configuration: configuration || interestedIn,
    interestedIn: interestedIn || configuration,
    siteVisit: text('siteVisit'),
    location: text('location'),
  };
}

/** Where the data is: the header row, its columns, and every non-blank row below it. */
export interface SheetLayout {
  headerRow: number;
  columns: ColumnMap;
  rows: number[];
}

export type LayoutResult = { ok: true; layout: SheetLayout } | { ok: false; status: number; message: string };

/**
 * Finds the header and the data rows, and refuses a sheet without them or with more rows than
 * allowed, before a single row is validated (so a refusal never follows a partial import).
 */
export function layoutSheet(
  data: readonly SheetRow[],
  options: { maxRows: number; truncated?: boolean },
): LayoutResult {
  for (const row of data) {
    if ((row?.length ?? 0) > MAX_COLUMNS) {
      return { ok: false, status: 413, message: rowMessages.tooManyColumns(MAX_COLUMNS) };
    }
  }
  const header = findHeader(data);
  if (!header) return { ok: false, status: 400, message: rowMessages.noRows };
  if ('missing' in header) return { ok: false, status: 400, message: missingColumnsMessage(header.missing) };
  const rows: number[] = [];
  for (let r = header.index + 1; r < data.length; r++) {
    if (isBlank(data[r])) continue;
    if (rows.length === options.maxRows) {
      return { ok: false, status: 413, message: rowMessages.tooManyRows(options.maxRows) };
    }
    rows.push(r);
  }
  // The reader stopped early (row limit + slack) and the last row it saw held data: more follow.
  if (options.truncated && rows.at(-1) === data.length - 1) {
    return { ok: false, status: 413, message: rowMessages.tooManyRows(options.maxRows) };
  }
  if (rows.length === 0) return { ok: false, status: 400, message: rowMessages.noRows };
  return { ok: true, layout: { headerRow: header.index, columns: header.columns, rows } };
}

/**
 * Validates the data rows in chunks of `chunkRows` and drops repeats of a phone seen earlier in
 * the file (the first valid row with a phone wins).
 */
export function* validateRows(
  data: readonly SheetRow[],
  layout: SheetLayout,
  options: { utcOffsetMinutes: number; chunkRows: number },
): Generator<{ valid: ImportRow[]; rejected: Rejection[] }> {
  const firstRowOfPhone = new Map<string, number>();
  for (let start = 0; start < layout.rows.length; start += options.chunkRows) {
    const valid: ImportRow[] = [];
    const rejected: Rejection[] = [];
    for (const r of layout.rows.slice(start, start + options.chunkRows)) {
      const result = validate(data[r], r, layout.columns, options.utcOffsetMinutes);
      if ('reason' in result) {
        rejected.push(result);
        continue;
      }
      const earlier = firstRowOfPhone.get(result.phone);
      if (earlier !== undefined) {
        rejected.push({ row: r, reason: rowMessages.duplicateInFile(earlier + 1) });
        continue;
      }
      firstRowOfPhone.set(result.phone, r);
      valid.push(result);
    }
    yield { valid, rejected };
  }
}

/** The whole sheet at once: layout and validation (the tests and the benchmark use it). */
export function readSheetRows(
  data: readonly SheetRow[],
  options: { maxRows: number; utcOffsetMinutes: number; truncated?: boolean },
): SheetReadResult {
  const located = layoutSheet(data, options);
  if (!located.ok) return located;
  const { layout } = located;
  const valid: ImportRow[] = [];
  const rejected: Rejection[] = [];
  for (const chunk of validateRows(data, layout, { ...options, chunkRows: layout.rows.length })) {
    valid.push(...chunk.valid);
    rejected.push(...chunk.rejected);
  }
  return {
    ok: true,
    headerRow: layout.headerRow,
    columns: layout.columns,
    totalRows: layout.rows.length,
    valid,
    rejected,
  };
}
