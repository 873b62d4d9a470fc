import { useRegisterSW } from 'virtual:pwa-register/react';
import { useEffect } from 'react';

// Field staff keep the app open for days; look for a new version every hour.
const UPDATE_CHECK_MS = 60 * 60 * 1000;
// "Ready to work offline" is news, not a question: it goes by itself instead of sitting over the
// board's bottom bar or the dashboard's table. A new version waits for the user's answer.
const OFFLINE_READY_MS = 6000;

/** Registers the service worker and offers a reload when a new version is waiting. */
export function ReloadPrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    offlineReady: [offlineReady, setOfflineReady],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update(), UPDATE_CHECK_MS);
    },
    onRegisterError(error) {
      console.warn('Service worker registration failed', error);
    },
  });

  useEffect(() => {
    if (!offlineReady || needRefresh) return;
    const timer = setTimeout(() => setOfflineReady(false), OFFLINE_READY_MS);
    return () => clearTimeout(timer);
  }, [offlineReady, needRefresh, setOfflineReady]);

  if (!needRefresh && !offlineReady) return null;
  const close = () => {
    setNeedRefresh(false);
    setOfflineReady(false);
  };

  return (
    <div className="reload-prompt" role="status">
      <p className="reload-prompt-text">
        {needRefresh ? 'A new version of LeadNest is available.' : 'Ready to work offline.'}
      </p>
      <div className="reload-prompt-actions">
        {needRefresh ? (
          <button
            type="button"
            className="button button-primary"
            onClick={() => void updateServiceWorker(true)}
          >
            Reload
          </button>
        ) : null}
        <button type="button" className="button button-secondary" onClick={close}>
          Close
        </button>
      </div>
    </div>
  );
}
