import type { Reminder } from '../../../../contract/lead-status';
import type { OutboxRow } from '../../../lib/db';

/**
 * A reminder as the server last listed it. The fields after the spec's come with the follow-up
 * calls (contract/follow-ups.ts); a copy cached before them has none, hence optional.
 */
export interface StoredReminder extends Reminder {
  isDone?: boolean;
  leadPhone?: string;
}

/** One follow-up as the employee sees it: the server's copy with the changes still on the device applied. */
export interface FollowUpItem {
  /** `r-<id>` for a stored reminder, the outbox row's id for one still waiting to be sent. */
  key: string;
  /** The server's id, or the waiting row's id (a done or snooze made before it reached the server). */
  reminderId: number | string;
  leadId: number;
  leadName: string;
  leadPhone: string;
  note: string;
  reminderTime: string;
  /** A change to it has not reached the server yet. */
  waiting: boolean;
}

export const reminderKey = (reminderId: number | string) =>
  typeof reminderId === 'number' ? `r-${reminderId}` : reminderId;

/**
 * The open follow-ups, soonest first: stored reminders not done, plus reminders set on the device,
 * with every waiting done/snooze applied in the order it was made. A refused row ("Needs
 * attention") is not applied, so its change is undone on screen, like a refused move.
 */
export function followUpsView(stored: readonly StoredReminder[], rows: readonly OutboxRow[]): FollowUpItem[] {
  const items = new Map<string, FollowUpItem>();
  for (const r of stored) {
    if (r.isDone) continue;
    items.set(reminderKey(r.reminderId), {
      key: reminderKey(r.reminderId),
      reminderId: r.reminderId,
      leadId: r.leadId,
      leadName: r.leadName,
      leadPhone: r.leadPhone ?? '',
      note: r.note,
      reminderTime: r.reminderTime,
      waiting: false,
    });
  }
  for (const row of [...rows].sort((a, b) => a.createdAt - b.createdAt)) {
    if (row.state !== 'pending') continue;
    if (row.kind === 'reminder') {
      items.set(row.id, {
        key: row.id,
        reminderId: row.id,
        leadId: row.leadId,
        leadName: row.leadName,
        leadPhone: '',
        note: String(row.payload.note ?? ''),
        reminderTime: String(row.payload.reminderTime),
        waiting: true,
      });
    } else if (row.kind === 'reminder-update') {
      const key = reminderKey(row.payload.reminderId as number | string);
      const item = items.get(key);
      if (!item) continue;
      if (row.payload.done === true) items.delete(key);
      else if (typeof row.payload.snoozeUntil === 'string')
        items.set(key, { ...item, reminderTime: row.payload.snoozeUntil, waiting: true });
    }
  }
  return [...items.values()].sort(
    (a, b) => Date.parse(a.reminderTime) - Date.parse(b.reminderTime) || a.key.localeCompare(b.key),
  );
}

export interface TodaySections {
  overdue: FollowUpItem[];
  today: FollowUpItem[];
  upcoming: FollowUpItem[];
}

function endOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(24, 0, 0, 0);
  return d.getTime();
}

/** Overdue: its time has passed. Due today: later today. Upcoming: after today. */
export function todaySections(items: readonly FollowUpItem[], now: number): TodaySections {
  const midnight = endOfDay(now);
  const sections: TodaySections = { overdue: [], today: [], upcoming: [] };
  for (const item of items) {
    const at = Date.parse(item.reminderTime);
    if (at <= now) sections.overdue.push(item);
    else if (at < midnight) sections.today.push(item);
    else sections.upcoming.push(item);
  }
  return sections;
}

/** The nav badge: what needs doing today, overdue included. */
export function dueCount(items: readonly FollowUpItem[], now: number): number {
  const midnight = endOfDay(now);
  return items.filter((item) => Date.parse(item.reminderTime) < midnight).length;
}

/** The soonest open follow-up of each lead, for the cards. */
export function nextFollowUps(items: readonly FollowUpItem[]): Map<number, FollowUpItem> {
  const next = new Map<number, FollowUpItem>();
  for (const item of items) if (!next.has(item.leadId)) next.set(item.leadId, item);
  return next;
}

const two = (n: number) => String(n).padStart(2, '0');

/** "16:30": field staff read times on a 24-hour clock whatever the phone's locale. */
export const clockTime = (date: Date) => `${two(date.getHours())}:${two(date.getMinutes())}`;

/** "today 16:30", "tomorrow 10:00", "yesterday 09:15", else "Fri 5 Jun 10:30". */
export function whenLabel(iso: string, now: number): string {
  const date = new Date(iso);
  const startOf = (ms: number) => new Date(ms).setHours(0, 0, 0, 0);
  const days = Math.round((startOf(date.getTime()) - startOf(now)) / 86_400_000);
  const day =
    days === 0
      ? 'today'
      : days === 1
        ? 'tomorrow'
        : days === -1
          ? 'yesterday'
          : date.toLocaleDateString('en-GB', {
              weekday: 'short',
              day: 'numeric',
              month: 'short',
              ...(date.getFullYear() === new Date(now).getFullYear() ? {} : { year: 'numeric' }),
            });
  return `${day} ${clockTime(date)}`;
}

/** The value a `datetime-local` input takes for `date`, in the phone's time zone. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${clockTime(date)}`;
}

/** Tomorrow at 10:00, the usual "call them in the morning". */
export function tomorrowAtTen(now: number): Date {
  const d = new Date(now);
  d.setDate(d.getDate() + 1);
  d.setHours(10, 0, 0, 0);
  return d;
}

/** Seconds dropped, so the picked time reads as a round minute. */
export function later(now: number, ms: number): Date {
  const d = new Date(now + ms);
  d.setSeconds(0, 0);
  return d;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
