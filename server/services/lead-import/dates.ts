import { formatInZone, wallClockToInstant, type Zone } from '../agency-time';

// Visit dates in spreadsheets (DESIGN.md §4): Excel serial numbers or text. Neither carries a
// time zone, so the wall-clock time is read in the agency's zone (issue 19) and stored as
// ISO-8601 with that zone's offset ("2026-01-05T10:30:00+05:30"); a date with no time is stored
// as the date alone ("2026-01-05"), so no screen invents a midnight visit.

export type DateResult = { ok: true; iso: string | null } | { ok: false };

const MS_PER_DAY = 86_400_000;
// Serial 25569 is 1970-01-01 in Excel's 1900 date system. Serials below 61 fall before Excel's
// phantom 1900-02-29 and are no plausible visit date anyway.
const UNIX_EPOCH_SERIAL = 25569;
const MIN_SERIAL = 61;
const MAX_SERIAL = 2_958_465; // 9999-12-31

const months = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

interface WallClock {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  /** Explicit offset in minutes when the text names one (…Z, …+05:30). */
  zone?: number;
  /** The text gave a time of day. */
  timed: boolean;
}

/** Wall-clock milliseconds of an Excel serial (the serial as if it were UTC). */
export function serialToWallClock(serial: number): number {
  return Math.round(((serial - UNIX_EPOCH_SERIAL) * MS_PER_DAY) / 1000) * 1000;
}

/** An Excel serial as "YYYY-MM-DD HH:MM" (how a rejected row shows its date). */
export function formatSerial(serial: number): string {
  const iso = new Date(serialToWallClock(serial)).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

function fromWallClock(wallMs: number, timed: boolean, zone: Zone): string {
  if (!timed) return new Date(wallMs).toISOString().slice(0, 10);
  return formatInZone(wallClockToInstant(wallMs, zone), zone);
}

function fromSerial(serial: number, zone: Zone): DateResult {
  if (!Number.isFinite(serial) || serial < MIN_SERIAL || serial > MAX_SERIAL) return { ok: false };
  const wall = serialToWallClock(serial);
  return { ok: true, iso: fromWallClock(wall, wall % MS_PER_DAY !== 0, zone) };
}

const timePart = String.raw`(?:[T\s,]+(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?(?:\.\d+)?\s*([ap])\.?m\.?)?`;
const time24 = String.raw`(?:[T\s,]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?`;
const zonePart = String.raw`\s*(Z|[+-]\d{2}:?\d{2})?`;

const isoLike = new RegExp(String.raw`^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})${time24}${zonePart}$`, 'i');
const dayFirst = new RegExp(String.raw`^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})${timePart}$`, 'i');
const dayFirst24 = new RegExp(String.raw`^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})${time24}$`, 'i');
const dayMonthName = new RegExp(String.raw`^(\d{1,2})[\s-]+([a-z]{3,9})\.?[\s,-]+(\d{4})${timePart}$`, 'i');
const dayMonthName24 = new RegExp(String.raw`^(\d{1,2})[\s-]+([a-z]{3,9})\.?[\s,-]+(\d{4})${time24}$`, 'i');
const monthNameDay = new RegExp(
  String.raw`^([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})${timePart}$`,
  'i',
);
const monthNameDay24 = new RegExp(
  String.raw`^([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})${time24}$`,
  'i',
);

function monthNumber(name: string): number {
  const lower = name.toLowerCase();
  // "Mar", "Sept" and "March" count; "Marzipan" does not.
  return months.findIndex((full) => full.startsWith(lower)) + 1;
}

function clock(
  h?: string,
  mi?: string,
  s?: string,
  meridiem?: string,
): Pick<WallClock, 'h' | 'mi' | 's'> | null {
  if (h === undefined) return { h: 0, mi: 0, s: 0 };
  let hour = Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0);
  } else if (mi === undefined) {
    return null; // a bare "10" after a date is not a time
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { h: hour, mi: minute, s: second };
}

function zoneMinutes(zone?: string): number | undefined {
  if (!zone) return undefined;
  if (zone.toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

function year(text: string): number {
  return text.length === 2 ? 2000 + Number(text) : Number(text);
}

function readText(text: string, monthFirst: boolean): WallClock | null {
  let m = isoLike.exec(text);
  if (m) {
    const t = clock(m[4], m[5], m[6]);
    return (
      t && {
        y: Number(m[1]),
        mo: Number(m[2]),
        d: Number(m[3]),
        ...t,
        zone: zoneMinutes(m[7]),
        timed: m[4] !== undefined,
      }
    );
  }
  // Day first: dates are written 05/01/2026 for 5 January in India (the agency's market).
  m = dayFirst.exec(text) ?? dayFirst24.exec(text);
  if (m) {
    const t = clock(m[4], m[5], m[6], m[7]);
    // The import wizard lets the admin say the file is month first (issue 19).
    const [d, mo] = monthFirst ? [m[2], m[1]] : [m[1], m[2]];
    return t && { y: year(m[3]!), mo: Number(mo), d: Number(d), ...t, timed: m[4] !== undefined };
  }
  m = dayMonthName.exec(text) ?? dayMonthName24.exec(text);
  if (m) {
    const t = clock(m[4], m[5], m[6], m[7]);
    return t && { y: Number(m[3]), mo: monthNumber(m[2]!), d: Number(m[1]), ...t, timed: m[4] !== undefined };
  }
  m = monthNameDay.exec(text) ?? monthNameDay24.exec(text);
  if (m) {
    const t = clock(m[4], m[5], m[6], m[7]);
    return t && { y: Number(m[3]), mo: monthNumber(m[1]!), d: Number(m[2]), ...t, timed: m[4] !== undefined };
  }
  return null;
}

function validDay(y: number, mo: number, d: number): boolean {
  if (y < 1900 || y > 9999 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** A visit date cell: a number is an Excel serial, text is parsed; empty is no date. */
export function parseVisitDate(
  value: string | number | null | undefined,
  zone: Zone,
  monthFirst = false,
): DateResult {
  if (value === null || value === undefined) return { ok: true, iso: null };
  if (typeof value === 'number') return fromSerial(value, zone);
  const text = value.trim();
  if (text === '') return { ok: true, iso: null };
  if (/^\d+(\.\d+)?$/.test(text)) return fromSerial(Number(text), zone);
  const w = readText(text, monthFirst);
  if (!w || !validDay(w.y, w.mo, w.d)) return { ok: false };
  const wall = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
  // A time that names its own offset is that instant, written in the agency's zone.
  if (w.zone !== undefined) return { ok: true, iso: formatInZone(wall - w.zone * 60_000, zone) };
  return { ok: true, iso: fromWallClock(wall, w.timed, zone) };
}
