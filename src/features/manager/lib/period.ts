export type PeriodKind = 'today' | '7d' | '30d' | 'custom';

export interface Period {
  kind: PeriodKind;
  /** yyyy-mm-dd, for the custom range's date inputs (local days, both included). */
  customFrom: string;
  customTo: string;
}

const DAY = 86_400_000;
const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());
export const dateInput = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The period as [from, to) instants; null when a custom range is incomplete or reversed. */
export function periodRange(period: Period, now = new Date()): { from: Date; to: Date } | null {
  const today = startOfDay(now);
  const tomorrow = new Date(today.getTime() + DAY);
  if (period.kind === 'today') return { from: today, to: tomorrow };
  if (period.kind === '7d') return { from: new Date(tomorrow.getTime() - 7 * DAY), to: tomorrow };
  if (period.kind === '30d') return { from: new Date(tomorrow.getTime() - 30 * DAY), to: tomorrow };
  const [from, to] = [period.customFrom, period.customTo].map((v) => (v ? new Date(`${v}T00:00:00`) : null));
  if (!from || !to || Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || to < from) return null;
  return { from, to: new Date(to.getTime() + DAY) };
}
