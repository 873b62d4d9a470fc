import { syncMessages } from '../../../contract/sync';
import { userDb } from '../../lib/db';

/**
 * Before any Logout of an employee (the board's or the navbar's): warn about unsynced changes,
 * keep the outbox for this user's next sign-in, and remove their cached leads (DESIGN.md §5).
 * Answers false when the user chose to stay signed in.
 */
export async function releaseDeviceData(email: string): Promise<boolean> {
  const db = userDb(email);
  const waiting = await db.outbox.count();
  if (waiting > 0 && !window.confirm(syncMessages.logoutWithPending(waiting))) return false;
  // While the token still works: the next person on this phone must not get this user's reminders.
  const { forgetDeviceSubscription } = await import('../push/lib/push-subscription');
  await forgetDeviceSubscription(db);
  // The delta cursor describes the cache: without the leads it would skip them on the next load.
  await db.transaction('rw', db.leads, db.meta, async () => {
    await db.leads.clear();
    await db.meta.delete('syncCursor');
  });
  return true;
}
