import { useEffect, useMemo, useRef } from 'react';
import toast from 'react-hot-toast';
import { useSearchParams } from 'react-router-dom';
import { OPEN_LEAD_PARAM, boardFollowUpMessages as t } from '../../../../contract/follow-ups-rules';
import type { Reminder } from '../../../../contract/lead-status';
import type { CachedLead, OutboxRow } from '../../../lib/db';
import type { UpcomingReminder } from '../../reminders/components/upcoming-reminders';
import { useNow } from '../../reminders/hooks/use-follow-ups';
import {
  type FollowUpItem,
  followUpsView,
  nextFollowUps,
  todaySections,
  whenLabel,
} from '../../reminders/lib/follow-ups';
import { usePostCallPrompt } from '../../reminders/lib/post-call';

/** The post-call prompt asks for the outcome; the address says so with `after=call`. */
export const AFTER_PARAM = 'after';

export interface FollowUpMark {
  text: string;
  overdue: boolean;
}

/**
 * The board's side of follow-ups (issue 15): the open follow-ups, each card's next one, the
 * overdue count, and the note modal opened by address (a notification's "Open", Today's Add Note)
 * or by coming back from a call.
 */
export function useFollowUpBoard(options: {
  reminders: readonly Reminder[];
  outbox: readonly OutboxRow[];
  leads: readonly CachedLead[];
  /** The first load is over (a lead missing now is really not on the board). */
  settled: boolean;
  openNote: (leadId: number, afterCall: boolean) => void;
}) {
  const { reminders, outbox, leads, settled, openNote } = options;
  const now = useNow(60_000);
  const items = useMemo(() => followUpsView(reminders, outbox), [reminders, outbox]);
  const marks = useStableMarks(items, now);
  const overdue = todaySections(items, now).overdue.length;

  const latest = useRef({ leads, openNote });
  latest.current = { leads, openNote };
  const [params, setParams] = useSearchParams();
  const wanted = params.get(OPEN_LEAD_PARAM);
  const afterCall = params.get(AFTER_PARAM) === 'call';
  useEffect(() => {
    if (wanted === null) return;
    const lead = latest.current.leads.find((l) => String(l.leadID) === wanted);
    // The device may not hold the lead yet (first visit): wait for the first load.
    if (!lead && !settled) return;
    setParams(
      (p) => {
        p.delete(OPEN_LEAD_PARAM);
        p.delete(AFTER_PARAM);
        return p;
      },
      { replace: true },
    );
    if (lead) latest.current.openNote(lead.leadID, afterCall);
    else toast.error(t.leadNotOnBoard, { duration: 2000 });
  }, [wanted, afterCall, settled, setParams]);

  usePostCallPrompt((leadId) => {
    if (latest.current.leads.some((l) => l.leadID === leadId)) latest.current.openNote(leadId, true);
  });

  return { items, marks, overdue };
}

/**
 * Each lead's next follow-up as its card shows it. The same Map while no card's text changes, so
 * the memoised columns are not redrawn every minute.
 */
function useStableMarks(items: readonly FollowUpItem[], now: number): Map<number, FollowUpMark> {
  const previous = useRef(new Map<number, FollowUpMark>());
  return useMemo(() => {
    const next = new Map<number, FollowUpMark>();
    for (const [leadId, item] of nextFollowUps(items)) {
      const due = Date.parse(item.reminderTime) <= now;
      const when = whenLabel(item.reminderTime, now);
      next.set(leadId, { text: due ? t.overdueFollowUp(when) : t.nextFollowUp(when), overdue: due });
    }
    const before = previous.current;
    const same =
      before.size === next.size &&
      [...next].every(([id, m]) => before.get(id)?.text === m.text && before.get(id)?.overdue === m.overdue);
    if (same) return before;
    previous.current = next;
    return next;
  }, [items, now]);
}

/** The open follow-ups (server's and those still waiting on the device), soonest first. */
export function useUpcomingReminders(items: readonly FollowUpItem[]) {
  return useMemo(() => {
    const all: UpcomingReminder[] = items.map((r) => ({
      key: r.key,
      leadName: r.leadName,
      reminderTime: r.reminderTime,
      note: r.note,
      waiting: r.waiting,
    }));
    const now = Date.now();
    return { all, future: all.filter((r) => Date.parse(r.reminderTime) > now) };
  }, [items]);
}
