import { useEffect, useRef } from 'react';
import toast from 'react-hot-toast';
import { leadStatusMessages } from '../../../../contract/lead-status-rules';
import type { UpcomingReminder } from '../components/upcoming-reminders';

const CHECK_EVERY_MS = 30_000;
// A reminder that fell due while the app was closed still gets one toast, unless it is stale.
const MISSED_WINDOW_MS = 12 * 3600_000;

/** A system notification through the service worker registration (works on Android, where `new Notification` does not). */
async function notify(title: string, body: string, tag: string): Promise<void> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    if (registration) await registration.showNotification(title, { body, tag, icon: '/icons/icon-192.png' });
  } catch {
    // The toast below still tells the user.
  }
}

/**
 * DESIGN.md §6: while the app is open, a reminder falling due raises a notification and a toast,
 * once. `alreadyNotified`/`markNotified` keep that memory on the device across reloads.
 */
export function useDueReminders(
  reminders: readonly UpcomingReminder[],
  alreadyNotified: (key: string) => boolean,
  markNotified: (key: string) => Promise<void> | void,
): void {
  const latest = useRef({ reminders, alreadyNotified, markNotified });
  latest.current = { reminders, alreadyNotified, markNotified };

  const check = useRef(() => {
    const { reminders: list, alreadyNotified: seen, markNotified: mark } = latest.current;
    const now = Date.now();
    for (const r of list) {
      const due = Date.parse(r.reminderTime);
      if (due > now || now - due > MISSED_WINDOW_MS || seen(r.key)) continue;
      const title = leadStatusMessages.reminderDue(r.leadName);
      // Noting it may fail (the device database closing at sign-out): at worst it toasts again.
      Promise.resolve(mark(r.key)).catch(() => undefined);
      toast(r.note ? `${title}: ${r.note}` : title, { duration: 2000, icon: '⏰' });
      // A system notification only while the app is out of sight (the toast says it otherwise),
      // under the tag of the service worker's push for this reminder: one notice, not two.
      if (document.visibilityState === 'hidden')
        void notify(title, r.note, r.key.startsWith('r-') ? `reminder-${r.key.slice(2)}` : r.key);
    }
  }).current;

  useEffect(() => {
    const timer = setInterval(check, CHECK_EVERY_MS);
    return () => clearInterval(timer);
  }, [check]);

  // Also look as soon as the list arrives or changes.
  useEffect(() => {
    if (reminders.length > 0) check();
  }, [reminders, check]);
}
