import { lazy, StrictMode, Suspense, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles/global.css';

// Registering the service worker can wait until the first screen is up.
const ReloadPrompt = lazy(async () => ({
  default: (await import('./components/ui/reload-prompt')).ReloadPrompt,
}));

const root = createRoot(document.getElementById('root')!);
// A transition: React draws the first screen in slices rather than one long task, so a slow
// phone can take a tap meanwhile (Lighthouse's total blocking time).
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
      <Suspense fallback={null}>
        <ReloadPrompt />
      </Suspense>
    </StrictMode>,
  );
});
