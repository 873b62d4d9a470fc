import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { OPEN_LEAD_MESSAGE } from '../../../contract/follow-ups-rules';

/**
 * A tapped reminder notification asks the open window (sw/sw.ts) to show its lead: routed in the
 * page, so nothing typed elsewhere is lost to a reload.
 */
export function useOpenLeadMessages(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!container) return;
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; url?: unknown } | null;
      // Only a path of this app (the worker sends one; anything else is ignored).
      if (data?.type === OPEN_LEAD_MESSAGE && typeof data.url === 'string' && data.url.startsWith('/'))
        navigate(data.url);
    };
    container.addEventListener('message', onMessage);
    return () => container.removeEventListener('message', onMessage);
  }, [navigate]);
}
