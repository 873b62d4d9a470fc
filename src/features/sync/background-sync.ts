/** Asks the service worker to wake the page when the network is back, where Background Sync exists. */
export async function requestBackgroundSync(): Promise<void> {
  try {
    const registration = (await navigator.serviceWorker?.getRegistration()) as
      | (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
      | undefined;
    await registration?.sync?.register('outbox');
  } catch {
    // Not supported (Firefox, Safari) or not allowed: the online event and the timer still flush.
  }
}
