import { useCallback, useSyncExternalStore } from 'react';

/**
 * The phone layout (issue 18): at this width and below the header folds into a menu and the
 * board shows one column at a time. The CSS uses the same number (`max-width: 480px`).
 */
export const PHONE_QUERY = '(max-width: 480px)';

/** Whether a media query matches, kept current; read during render so the first paint is right. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener?.('change', onChange);
      return () => list?.removeEventListener?.('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}

export const usePhoneLayout = () => useMediaQuery(PHONE_QUERY);
