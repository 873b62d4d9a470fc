import { type ReactNode, useEffect } from 'react';
import { Toaster } from 'react-hot-toast';
import { watchSessionAcrossTabs } from '../lib/session';

// Spec §9: toasts sit top-centre and close after 2.5 s unless a screen says otherwise.
const TOAST_DURATION_MS = 2500;

export function AppProviders({ children }: { children: ReactNode }) {
  useEffect(watchSessionAcrossTabs, []);
  return (
    <>
      {children}
      <Toaster position="top-center" toastOptions={{ duration: TOAST_DURATION_MS }} />
    </>
  );
}
