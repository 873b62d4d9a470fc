import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare let self: ServiceWorkerGlobalScope;

// Background Sync is not in TypeScript's WebWorker lib (Chromium-only API).
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

// Must match the tag the page registers with registration.sync.register().
const OUTBOX_SYNC_TAG = 'outbox';

self.addEventListener('message', (event) => {
  // The reload prompt asks the waiting worker to take over (registerType 'prompt').
  if (event.data?.type === 'SKIP_WAITING') void self.skipWaiting();
});

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every app route opens offline from the precached shell; API calls always go to the network.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api\//] }));

// The page owns the outbox (IndexedDB + auth token), so the worker only nudges open pages to flush.
self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== OUTBOX_SYNC_TAG) return;
  sync.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
      for (const client of clients) client.postMessage({ type: 'SYNC_OUTBOX' });
    }),
  );
});

// A tapped reminder notification brings the board forward, or opens it when no tab is open.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
      const open = clients.find((c) => new URL(c.url).pathname.startsWith('/employee'));
      return open ? open.focus() : self.clients.openWindow('/employee');
    }),
  );
});
