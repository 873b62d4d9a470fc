import { useCallback, useEffect, useState } from 'react';
import type { LeadNestDb } from '../../../lib/db';
import { type PushState, pushState } from './push-subscription';

// The board's offer and the menu show one state; a change made in one redraws the other.
const listeners = new Set<() => void>();
export function pushStateChanged(): void {
  for (const listener of listeners) listener();
}

/** This device's notification state, looked at again when the user comes back (from the settings). */
export function usePushState(db: LeadNestDb): { state: PushState | null; refresh: () => void } {
  const [state, setState] = useState<PushState | null>(null);
  const refresh = useCallback(() => {
    pushState(db)
      .then(setState)
      .catch(() => setState('unsupported'));
  }, [db]);
  useEffect(() => {
    refresh();
    const onVisible = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    listeners.add(refresh);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      listeners.delete(refresh);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [refresh]);
  return { state, refresh };
}
