// When a reminder is pushed and mailed, and when it is not (docs/follow-ups.md, issue 15).

/**
 * A reminder whose time had already passed by more than this when the server learnt of it (set
 * offline and synced late, or snoozed to a time gone by) is never pushed or mailed: it shows as
 * overdue in Today instead of firing a stale notification. The grace covers a time picked for
 * "now" (datetime-local has no seconds), a phone clock a little off, and a quick sync.
 */
export const LATE_ARRIVAL_GRACE_MS = 2 * 60_000;

/** The time the scheduler should deliver a reminder set for `time`, or null: never. */
export function armAt(time: string, now: Date = new Date()): string | null {
  return Date.parse(time) >= now.getTime() - LATE_ARRIVAL_GRACE_MS ? time : null;
}

/** Failed deliveries wait 1, 2, 4, 8 then 15 minutes between tries (until the stale window ends). */
export function retryDelayMs(attempts: number): number {
  return Math.min(15 * 60_000, 60_000 * 2 ** Math.max(0, attempts - 1));
}

/** Stored as "push,mail": the channels a reminder went out through, in a fixed order. */
export function parseChannels(stored: string): ('push' | 'mail')[] {
  const set = new Set(stored.split(','));
  return (['push', 'mail'] as const).filter((c) => set.has(c));
}
export const formatChannels = (channels: Iterable<string>) =>
  parseChannels([...channels].join(',')).join(',');
