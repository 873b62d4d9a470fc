import { lazy, Suspense } from 'react';
import { syncMessages } from '../../../../contract/sync';
import { useSession } from '../../../lib/session';

// IndexedDB comes with the screen; the heading shows while it loads.
const TodayScreen = lazy(async () => ({ default: (await import('./today-screen')).TodayScreen }));

/** The employee's follow-ups for today (issue 15, /today). */
export function Today() {
  const email = useSession()?.email ?? '';
  if (typeof indexedDB === 'undefined' || email === '')
    return <p className="notice notice-warning">{syncMessages.storageUnavailable}</p>;
  return (
    <Suspense fallback={<p className="page-loading">Loading your follow-ups…</p>}>
      <TodayScreen email={email} />
    </Suspense>
  );
}
