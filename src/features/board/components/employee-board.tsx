import { lazy, Suspense } from 'react';
import { syncMessages } from '../../../../contract/sync';
import { useSession } from '../../../lib/session';

// The board brings drag and drop and IndexedDB with it; the page heading shows while they load.
const BoardScreen = lazy(async () => ({ default: (await import('./board-screen')).BoardScreen }));

/** The main employee board (spec §2 /employee). */
export function EmployeeBoard() {
  const email = useSession()?.email ?? '';
  const usable = typeof indexedDB !== 'undefined' && email !== '';
  return (
    <>
      {/* The page's heading for screen readers; the greeting is what people see. */}
      <h1 className={usable ? 'visually-hidden' : 'page-title'}>Employee board</h1>
      {usable ? (
        <Suspense fallback={<p className="page-loading">Loading your leads…</p>}>
          <BoardScreen email={email} />
        </Suspense>
      ) : (
        <p className="notice notice-warning">{syncMessages.storageUnavailable}</p>
      )}
    </>
  );
}
