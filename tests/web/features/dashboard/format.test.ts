import { describe, expect, it } from 'vitest';
import { formatCount, formatVisit } from '../../../../src/features/dashboard/lib/format';

describe('visit times on the dashboard (issue 19)', () => {
  it('shows a date without a time as that date, with no invented midnight', () => {
    const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(
      Date.UTC(2026, 0, 5),
    );
    expect(formatVisit('2026-01-05')).toBe(day);
  });

  it('shows a time with an offset at the instant it names', () => {
    const expected = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date('2026-01-05T05:00:00Z'),
    );
    expect(formatVisit('2026-01-05T10:30:00+05:30')).toBe(expected);
  });

  it('groups counts the Indian way', () => {
    expect(formatCount(138014)).toBe('1,38,014');
  });
});
