import { normalisePhone } from '../../../contract/leads-list';
import type { Zone } from '../agency-time';
import type { ColumnMap, LeadField } from './columns';
import { formatSerial, parseVisitDate } from './dates';

// Row rules of DESIGN.md §4, applied to one row's cells: what a cell reads as, and what a row
// becomes (a lead, or a rejection). Pure: the parse worker runs it through rows.ts, and the
// tests and the benchmark call it directly.

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

/**
 * One data row under DESIGN.md §4 and issue 19: a lead to insert, or why the row cannot be
 * worked (no callable phone). Anything else unusable is kept in the lead's note.
 */
export function validateRow(
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
