import { offsetAt, type Zone } from '../agency-time';

// A cell that starts with one of these may be read as a formula by a spreadsheet (or by whatever
// the sheet is later saved as, CSV included): OWASP's "CSV injection".
const FORMULA_START = /^[=+\-@\t\r]/;
// Characters XML 1.0 cannot carry at all; a lead typed with one would make the file unreadable.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching those characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/**
 * Text as a sheet cell: written as a text cell, never a formula, and with an apostrophe before
 * a leading = + - @, tab or carriage return, the neutralising OWASP recommends, so a formula
 * typed into a lead's name cannot run even after the sheet is edited or re-saved as CSV.
 */
export function textCell(value: string | null | undefined): string {
  if (!value) return '';
  const clean = value.replace(NOT_XML, '');
  return FORMULA_START.test(clean) ? `'${clean}` : clean;
}

/** An instant as the agency's wall-clock time, "2026-11-25 14:30" (AGENCY_TIMEZONE). */
export function agencyTime(iso: string | null | undefined, zone: Zone): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  // Past JavaScript's last date (year 275760) once the zone's offset is added: as typed.
  const wall = Number.isNaN(ms) ? Number.NaN : ms + offsetAt(zone, ms) * 60_000;
  if (!Number.isFinite(new Date(wall).getTime())) return textCell(iso);
  return new Date(wall).toISOString().slice(0, 16).replace('T', ' ');
}

/** The agency's date now, "2026-11-25", for the file's name. */
export function agencyDay(now: Date, zone: Zone): string {
  const ms = now.getTime();
  return new Date(ms + offsetAt(zone, ms) * 60_000).toISOString().slice(0, 10);
}
