const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
// A date with no time is a calendar day, not midnight UTC: shown as that day wherever the viewer is.
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** An ISO visit time in the viewer's zone, a date without a time as that date, or an empty cell. */
export function formatVisit(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(DATE_ONLY.test(iso) ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return iso;
  return DATE_ONLY.test(iso) ? dateOnly.format(date) : dateTime.format(date);
}

// One number format on the dashboard (issue 19): Indian grouping, 1,38,014.
const counts = new Intl.NumberFormat('en-IN');
export const formatCount = (n: number) => counts.format(n);
