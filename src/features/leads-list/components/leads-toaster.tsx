import { useEffect } from 'react';
import toast, { Toaster, useToaster } from 'react-hot-toast';

// Spec §9: this screen's toasts sit top-right for 5 s, pausing on hover and when the window
// loses focus. A toaster of its own keeps them apart from the app's top-centre 2.5 s ones.
const TOASTER_ID = 'leads-list';
const DURATION_MS = 5000;

export function toastLeadsError(message: string): void {
  toast.error(message, { toasterId: TOASTER_ID });
}

/** react-hot-toast pauses on hover by itself; focus loss it leaves to us. */
function PauseOnFocusLoss() {
  const { handlers } = useToaster(undefined, TOASTER_ID);
  const { startPause, endPause } = handlers;
  useEffect(() => {
    window.addEventListener('blur', startPause);
    window.addEventListener('focus', endPause);
    return () => {
      window.removeEventListener('blur', startPause);
      window.removeEventListener('focus', endPause);
    };
  }, [startPause, endPause]);
  return null;
}

export function LeadsToaster() {
  return (
    <>
      <Toaster toasterId={TOASTER_ID} position="top-right" toastOptions={{ duration: DURATION_MS }} />
      <PauseOnFocusLoss />
    </>
  );
}
