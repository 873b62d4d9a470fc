import { lazy, Suspense } from 'react';
import { syncMessages } from '../../../../contract/sync';
import { useSession } from '../../../lib/session';

// The board brings IndexedDB with it; the page heading shows while it loads.
const OlderBoardScreen = lazy(async () => ({
  default: (await import('./older-board-screen')).OlderBoardScreen,
}));

/** Spec §2's older board variant at /employees. */
export function OlderBoard() {
  const email = useSession()?.email ?? '';
  const usable = typeof indexedDB !== 'undefined' && email !== '';
  return (
    <>
      <h1 className={usable ? 'visually-hidden' : 'page-title'}>Older board</h1>
      {usable ? (
        <Suspense fallback={<p className="page-loading">Loading your leads…</p>}>
          <OlderBoardScreen email={email} />
        </Suspense>
      ) : (
        <p className="notice notice-warning">{syncMessages.storageUnavailable}</p>
      )}
    </>
  );
}
