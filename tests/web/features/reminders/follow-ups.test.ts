import { describe, expect, it } from 'vitest';
import {
  dueCount,
  type FollowUpItem,
  followUpsView,
  nextFollowUps,
  type StoredReminder,
  todaySections,
  toLocalInput,
  tomorrowAtTen,
  whenLabel,
} from '../../../../src/features/reminders/lib/follow-ups';
import type { OutboxRow } from '../../../../src/lib/db';

// A fixed local "now": Wednesday 25 November 2026, 14:00 on the phone's clock.
const now = new Date(2026, 10, 25, 14, 0).getTime();
const at = (day: number, hour: number, minute = 0) => new Date(2026, 10, day, hour, minute).toISOString();

const stored = (id: number, time: string, extra: Partial<StoredReminder> = {}): StoredReminder => ({
  reminderId: id,
  leadId: 100 + id,
  leadName: `Lead ${id}`,
  employeeEmail: 'a@b.test',
  reminderTime: time,
  note: '',
  isSent: false,
  createdOn: time,
  leadPhone: '9820000000',
  isDone: false,
  ...extra,
});

let stamp = 0;
const row = (
  kind: OutboxRow['kind'],
  payload: Record<string, unknown>,
  extra: Partial<OutboxRow> = {},
): OutboxRow => ({
  id: `row-${++stamp}`,
  kind,
  leadId: 1,
  payload,
  leadName: 'Waiting lead',
  createdAt: stamp,
  attempts: 0,
  state: 'pending',
  nextAttemptAt: 0,
  ...extra,
});

const keys = (items: FollowUpItem[]) => items.map((i) => i.key);

describe('the follow-ups on the device', () => {
  it('lists open reminders soonest first, leaving out done ones and adding those set offline', () => {
    const waiting = row('reminder', { reminderTime: at(25, 15), note: 'offline' });
    const items = followUpsView(
      [stored(1, at(26, 10)), stored(2, at(25, 9)), stored(3, at(25, 8), { isDone: true })],
      [waiting],
    );
    expect(keys(items)).toEqual(['r-2', waiting.id, 'r-1']);
    expect(items[1]).toMatchObject({ leadName: 'Waiting lead', note: 'offline', waiting: true });
  });

  it('applies waiting done and snooze rows in order, and not refused ones', () => {
    const items = followUpsView(
      [stored(1, at(25, 9)), stored(2, at(25, 10)), stored(3, at(25, 11))],
      [
        row('reminder-update', { reminderId: 1, done: true }),
        row('reminder-update', { reminderId: 2, snoozeUntil: at(27, 10) }),
        row('reminder-update', { reminderId: 3, done: true }, { state: 'attention' }),
      ],
    );
    expect(items.map((i) => [i.key, i.reminderTime, i.waiting])).toEqual([
      ['r-3', at(25, 11), false],
      ['r-2', at(27, 10), true],
    ]);
  });

  it('sorts into Overdue, Due today and Upcoming, and counts overdue plus today for the badge', () => {
    const items = followUpsView(
      [stored(1, at(24, 18)), stored(2, at(25, 13, 59)), stored(3, at(25, 23, 59)), stored(4, at(26, 0))],
      [],
    );
    const sections = todaySections(items, now);
    expect(keys(sections.overdue)).toEqual(['r-1', 'r-2']);
    expect(keys(sections.today)).toEqual(['r-3']);
    expect(keys(sections.upcoming)).toEqual(['r-4']);
    expect(dueCount(items, now)).toBe(3);
  });

  it("picks each lead's soonest open follow-up for its card", () => {
    const items = followUpsView(
      [
        stored(1, at(26, 10), { leadId: 7 }),
        stored(2, at(25, 9), { leadId: 7 }),
        stored(3, at(27, 9), { leadId: 8 }),
      ],
      [],
    );
    const next = nextFollowUps(items);
    expect(next.get(7)?.key).toBe('r-2');
    expect(next.get(8)?.key).toBe('r-3');
  });

  it('words times the way the cards and Today show them, on a 24-hour clock', () => {
    expect(whenLabel(at(25, 16, 30), now)).toBe('today 16:30');
    expect(whenLabel(at(26, 10), now)).toBe('tomorrow 10:00');
    expect(whenLabel(at(24, 9, 5), now)).toBe('yesterday 09:05');
    expect(whenLabel(at(30, 10, 30), now)).toBe('Mon 30 Nov 10:30');
    expect(toLocalInput(tomorrowAtTen(now))).toBe('2026-11-26T10:00');
  });
});
