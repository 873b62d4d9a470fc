import { syncMessages } from '../../../contract/sync';
import { releaseUserDb, userDb } from '../../lib/db';

/**
 * Before any Logout of an employee (the board's or the navbar's): warn about unsynced changes,
 * then remove everything of this user from the device but those changes (DESIGN.md §5; issue 16:
 * the next person on a shared phone must find none of their leads or reminders). The changes
 * stay for this user's next sign-in. Answers false when the user chose to stay signed in.
 */
export async function releaseDeviceData(email: string): Promise<boolean> {
  const db = userDb(email);
  const waiting = await db.outbox.count();
  if (waiting > 0 && !window.confirm(syncMessages.logoutWithPending(waiting))) return false;
  // While the token still works: the next person on this phone must not get this user's reminders.
  const { forgetDeviceSubscription } = await import('../push/lib/push-subscription');
  await forgetDeviceSubscription(db);
  if ((await db.outbox.count()) === 0) {
    await releaseUserDb(email, { delete: true });
    return true;
  }
  // Leads, option lists, reminders and the delta cursor go; the outbox rows alone stay.
  await db.transaction('rw', db.leads, db.options, db.meta, async () => {
    await db.leads.clear();
    await db.options.clear();
    await db.meta.clear();
  });
  await releaseUserDb(email);
  return true;
}
