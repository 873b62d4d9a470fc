import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { followUpLeadPath, followUpMessages, OPEN_LEAD_MESSAGE } from '../contract/follow-ups-rules';

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

// ---- Follow-up reminders by Web Push (issue 15) ----

// The server's payload (contract/follow-ups.ts, ReminderPush): read by hand, not with zod, to keep
// the worker small.
interface ReminderPush {
  type: 'reminder';
  reminderId: number;
  leadId: number;
  leadName: string;
  phone: string;
  note: string;
  reminderTime: string;
  url: string;
}

/** What a shown notification carries for its click. */
interface ReminderNotificationData {
  leadId: number;
  phone: string;
  url: string;
}

// Actions are missing from TypeScript's NotificationOptions (Chromium and Firefox support them).
type ReminderNotificationOptions = NotificationOptions & {
  actions?: { action: string; title: string }[];
  timestamp?: number;
};

function readPush(event: PushEvent): ReminderPush | null {
  try {
    const data = event.data?.json() as Partial<ReminderPush> | undefined;
    return data?.type === 'reminder' && typeof data.leadId === 'number' && typeof data.leadName === 'string'
      ? (data as ReminderPush)
      : null;
  } catch {
    return null;
  }
}

/** Only a path of this app is opened, whatever a payload says. */
function appPath(url: unknown, leadId: number): string {
  const fallback = followUpLeadPath(leadId);
  if (typeof url !== 'string') return fallback;
  const parsed = new URL(url, self.location.origin);
  return parsed.origin === self.location.origin ? parsed.pathname + parsed.search : fallback;
}

self.addEventListener('push', (event) => {
  const push = readPush(event);
  // Every push must show something (userVisibleOnly); one we cannot read opens the board.
  if (!push) {
    event.waitUntil(
      self.registration.showNotification('LeadNest', {
        body: followUpMessages.notificationBodyEmpty,
        icon: '/icons/icon-192.png',
        data: { leadId: 0, phone: '', url: '/employee' } satisfies ReminderNotificationData,
      }),
    );
    return;
  }
  const phone = push.phone.replace(/[^\d+]/g, '');
  const options: ReminderNotificationOptions = {
    body: push.note || followUpMessages.notificationBodyEmpty,
    // One notification per reminder: the page's own "due" notice for it replaces, not repeats, it.
    tag: `reminder-${push.reminderId}`,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    timestamp: Date.parse(push.reminderTime) || Date.now(),
    data: {
      leadId: push.leadId,
      phone,
      url: appPath(push.url, push.leadId),
    } satisfies ReminderNotificationData,
    actions: [
      ...(phone ? [{ action: 'call', title: followUpMessages.call }] : []),
      { action: 'open', title: followUpMessages.open },
    ],
  };
  event.waitUntil(
    self.registration.showNotification(followUpMessages.notificationTitle(push.leadName), options),
  );
});

/**
 * Brings the app forward on the lead: an open window is focused and told which lead to open (no
 * reload, nothing typed is lost); with none open, a new window opens on the lead's address.
 */
async function openLead(data: ReminderNotificationData): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((c) => new URL(c.url).origin === self.location.origin);
  if (!open) {
    await self.clients.openWindow(data.url);
    return;
  }
  open.postMessage({ type: OPEN_LEAD_MESSAGE, url: data.url });
  await open.focus();
}

self.addEventListener('notificationclick', (event) => {
  const data = (event.notification.data ?? {
    leadId: 0,
    phone: '',
    url: '/employee',
  }) as ReminderNotificationData;
  event.notification.close();
  if (event.action === 'call' && data.phone) {
    // The dialer; should the browser refuse a tel: window, the lead opens in the app instead.
    event.waitUntil(self.clients.openWindow(`tel:${data.phone}`).catch(() => openLead(data)));
    return;
  }
  // "Open" and a tap on the body both open the lead's note modal: the lead's page on the phone.
  event.waitUntil(openLead(data));
});
