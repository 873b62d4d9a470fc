import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles/global.css';

// Registering the service worker can wait until the first screen is up.
const ReloadPrompt = lazy(async () => ({
  default: (await import('./components/ui/reload-prompt')).ReloadPrompt,
}));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
    <Suspense fallback={null}>
      <ReloadPrompt />
    </Suspense>
  </StrictMode>,
);
