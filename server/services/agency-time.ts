// Times in the agency's time zone (issue 19, `AGENCY_TIMEZONE`, default Asia/Kolkata). A sheet's
// "10:30" is 10:30 where the agency works, and answers carry the offset
// ("2026-01-05T10:30:00+05:30") so an API client converting from UTC shows the same 10:30.

export const DEFAULT_AGENCY_TIMEZONE = 'Asia/Kolkata';

/** Where wall-clock times are read and written: a named zone, or a fixed offset (minutes east). */
export type Zone = { timeZone: string } | { offsetMinutes: number };

const formatters = new Map<string, Intl.DateTimeFormat>();
const HOUR = 3_600_000;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Throws RangeError for a zone name the runtime does not know (checked once at start). */
export function assertTimeZone(timeZone: string): void {
  formatterFor(timeZone);
}

// Zone offsets change at most on the hour (or half hour) boundary: cache by UTC hour.
const offsetCache = new Map<string, number>();

/** The zone's offset from UTC, in minutes east, at an instant. */
export function offsetAt(zone: Zone, instantMs: number): number {
  if ('offsetMinutes' in zone) return zone.offsetMinutes;
  const hour = Math.floor(instantMs / HOUR);
  const key = `${zone.timeZone} ${hour}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone.timeZone).formatToParts(new Date(hour * HOUR))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  const offset = Math.round((asUtc - hour * HOUR) / 60_000);
  if (offsetCache.size > 10_000) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

/** The instant of a wall-clock time (its digits read as if UTC) in the zone. */
export function wallClockToInstant(wallMs: number, zone: Zone): number {
  const guess = wallMs - offsetAt(zone, wallMs) * 60_000;
  return wallMs - offsetAt(zone, guess) * 60_000;
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** An instant as ISO-8601 with the zone's offset: "2026-01-05T10:30:00+05:30". */
export function formatInZone(instantMs: number, zone: Zone): string {
  const offset = offsetAt(zone, instantMs);
  const wall = new Date(instantMs + offset * 60_000).toISOString().slice(0, 19);
  return `${wall}${offsetText(offset)}`;
}
