import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FollowUp } from '../../contract/follow-ups';
import type { Lead } from '../../contract/leads';
import { createTestDevice, type FakePushService, startFakePushService } from '../helpers/push-service';
import { buildRegistration } from '../helpers/test-server';
import {
  type ApiInit,
  apiCall,
  apiLogin,
  desktop,
  launchBrowser,
  phone,
  type RunningServer,
  startBuiltServer,
} from './support/harness';

// Issue 15, the web side of follow-ups, in Chromium against the real server:
// - turning notifications on through the board's offer stores this device's subscription, the
//   server's scheduler pushes a due reminder to it, the service worker shows it, and a tap on it
//   opens the lead's note modal;
// - after Call on a card, coming back to the app opens the note modal on "Call Status";
// - Today opens offline from the device with the overdue follow-ups, and the board says so.
//
// Two stand-ins, both where headless Chromium has no real part:
// - The push service. A browser's subscription lives at its vendor's service (Google's FCM for
//   Chromium), which a headless browser without Google's servers cannot reach: subscribe() never
//   settles. The page's PushManager.subscribe/getSubscription are replaced (before any app code)
//   by a subscription at a push service on loopback, with a key pair the test holds; everything
//   else is the product's own path. What the server posts there is decrypted with that key and
//   handed to the service worker with the DevTools call `ServiceWorker.deliverPushMessage`, which
//   is what FCM would deliver.
// - The tap. An OS notification cannot be clicked headlessly, so the test dispatches a
//   `notificationclick` with the shown Notification inside the service worker, running the
//   worker's own handler. Chromium allows focus()/openWindow() only for a real click, so this
//   proves the open-window path (the worker tells the open page which lead to show), not the
//   no-window path (openWindow), which only a real tap can reach.
// - Visibility. Headless Chromium never hides a page (another tab, a minimised window and the
//   lifecycle calls all leave it "visible"), so the test sets document.visibilityState and fires
//   `visibilitychange` the way the browser does when the dialer comes to the front and goes.

const admin = { email: 'owner@followups.test', password: 'Owner@2026' };
const shots = '/work/shots';
let browser: Browser;
let server: RunningServer;
let pushService: FakePushService;
let adminToken: string;
let employee: { email: string; password: string; token: string };
const leads: Record<string, Lead> = {};

const call = <T>(p: string, token: string, init?: ApiInit) => apiCall<T>(server, p, token, init);

async function addLead(name: string, phoneNo: string): Promise<Lead> {
  return call<Lead>('Admin/leads', adminToken, {
    method: 'POST',
    body: { name, phoneNo, location: 'Powai', configuration: '2 BHK', assignedTo: employee.email },
  });
}

async function addReminder(lead: Lead, at: Date, note: string): Promise<FollowUp> {
  return call<FollowUp>('LeadStatus/add-reminder', employee.token, {
    method: 'POST',
    body: { leadId: lead.leadID, reminderTime: at.toISOString(), note },
  });
}

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `push-web-${name}.png`) });
}

async function signIn(page: Page) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(employee.email);
  await page.getByLabel('Password', { exact: true }).fill(employee.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/employee');
}

/** Fires visibilitychange as the browser does when another app comes to the front, then leaves. */
async function leaveAndComeBack(page: Page) {
  for (const state of ['hidden', 'visible'])
    await page.evaluate((s) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => s === 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
      // Back on the page: the browser's own (always "visible") answers again.
      if (s === 'visible') {
        delete (document as { visibilityState?: unknown }).visibilityState;
        delete (document as { hidden?: unknown }).hidden;
      }
    }, state);
}

beforeAll(async () => {
  pushService = await startFakePushService();
  browser = await launchBrowser();
  // A scan every second, so a reminder due in two seconds goes out while the test waits.
  server = await startBuiltServer({
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    REMINDER_SCAN_SECONDS: '1',
  });
  adminToken = await apiLogin(server, admin.email, admin.password);
  const body = buildRegistration({ email: 'field.agent@followups.test', password: 'Agent@2026x' });
  await call('Registration', adminToken, { method: 'POST', body });
  employee = {
    email: body.email,
    password: body.password,
    token: await apiLogin(server, body.email, body.password),
  };
  leads.anita = await addLead('Anita Desai', '9820011111');
  leads.vikram = await addLead('Vikram Rao', '9820022222');
  leads.kiran = await addLead('Kiran Shah', '9820033333');
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await pushService?.close();
});

describe('a follow-up reminder on a phone', () => {
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  const device = () => createTestDevice(pushService);
  let testDevice: ReturnType<typeof createTestDevice>;

  beforeAll(async () => {
    testDevice = device();
    context = await browser.newContext({ ...phone, baseURL: server.url });
    await context.grantPermissions(['notifications'], { origin: server.url });
    await context.addInitScript((subscription) => {
      const w = window as unknown as { __pushKey?: string };
      let current: unknown = null;
      const fake = (key: ArrayBuffer | Uint8Array) => ({
        endpoint: subscription.endpoint,
        expirationTime: null,
        options: { applicationServerKey: key, userVisibleOnly: true },
        toJSON: () => subscription,
        unsubscribe: async () => {
          current = null;
          return true;
        },
      });
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
        w.__pushKey = btoa(String.fromCharCode(...key))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
        current = fake(key);
        return current as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
    }, testDevice.subscription);
    // The dialer: Chromium here has none, and a tel: link it cannot hand over leaves the page
    // taking no more clicks. The app's own click handler runs first (React listens on its root,
    // inside the document); only the navigation is stopped.
    await context.addInitScript(() => {
      document.addEventListener('click', (event) => {
        if ((event.target as Element | null)?.closest?.('a[href^="tel:"]')) event.preventDefault();
      });
    });
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
  });
  afterAll(() => context?.close());

  it('is turned on from the board, pushed by the server, shown by the service worker, and opens the lead when tapped', async () => {
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');

    await signIn(page);
    const offer = page.getByRole('region', { name: 'Get follow-up reminders on this device' });
    await offer.waitFor();
    await shot(page, 'enable-prompt-phone');
    await offer.getByRole('button', { name: 'Turn on notifications' }).click();
    await page.getByText('Notifications are on for this device.').waitFor();
    // The toast sits over the header for its two seconds.
    await page.getByText('Notifications are on for this device.').waitFor({ state: 'detached' });
    await offer.waitFor({ state: 'detached' });
    const { publicKey } = await call<{ publicKey: string }>('push/public-key', employee.token);
    expect(await page.evaluate(() => (window as unknown as { __pushKey?: string }).__pushKey)).toBe(
      publicKey,
    );

    // The menu says so.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Notifications On' }).waitFor();
    await page.getByRole('button', { name: 'Menu' }).click();

    // A reminder falls due; the server's scheduler pushes it to this device's subscription.
    const reminder = await addReminder(leads.anita!, new Date(Date.now() + 2_000), 'Wants a sea view');
    await pushService.waitFor(1, 30_000);
    const [message] = pushService.received;
    expect(message!.path).toBe(testDevice.path);
    const payload = testDevice.decrypt(message!.body);
    expect(JSON.parse(payload)).toMatchObject({
      type: 'reminder',
      reminderId: reminder.reminderId,
      leadName: 'Anita Desai',
      note: 'Wants a sea view',
    });

    // What the push service would deliver, handed to the service worker.
    await page.goto('/today');
    await page.getByRole('heading', { name: 'Today', level: 1 }).waitFor();
    const registration = registrations.find((r) => !r.isDeleted && r.scopeURL === `${server.url}/`);
    expect(registration).toBeDefined();
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId: registration!.registrationId,
      data: payload,
    });
    const shown = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          actions: (n as Notification & { actions?: { action: string; title: string }[] }).actions,
        }));
      });
    await expect.poll(async () => (await shown()).length).toBe(1);
    expect(
      (await shown()).map((n) => ({
        ...n,
        actions: n.actions?.map(({ action, title }) => ({ action, title })),
      }))[0],
    ).toEqual({
      title: 'Follow up: Anita Desai',
      body: 'Wants a sea view',
      tag: `reminder-${reminder.reminderId}`,
      actions: [
        { action: 'call', title: 'Call' },
        { action: 'open', title: 'Open' },
      ],
    });

    // A tap on the notification's body, through the worker's own notificationclick handler.
    const worker = context.serviceWorkers().find((w) => w.url().endsWith('/sw.js'));
    expect(worker).toBeDefined();
    await worker!.evaluate(async () => {
      // The worker's global scope (this file is typed for Node and the page, not for workers).
      const scope = self as unknown as EventTarget & {
        registration: ServiceWorkerRegistration;
        NotificationEvent: new (type: string, init: { notification: Notification; action?: string }) => Event;
      };
      const [notification] = await scope.registration.getNotifications();
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: notification! }));
    });
    const modal = page.getByRole('dialog', { name: `Add Note — Lead #${leads.anita!.leadID}` });
    await modal.waitFor();
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/employee');
    // The worker closed the notification it handled.
    expect(
      await page.evaluate(
        async () => (await (await navigator.serviceWorker.ready).getNotifications()).length,
      ),
    ).toBe(0);
    await modal.getByRole('button', { name: 'Close' }).click();
  });

  it('gives the device back to the server when the board opens, after the server dropped it', async () => {
    // What a 410 from the push service, or a deactivate and reactivate, leaves behind.
    const dropped = await fetch(`${server.url}/api/push/subscriptions`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${employee.token}` },
      body: JSON.stringify({ endpoint: testDevice.subscription.endpoint }),
    });
    expect(dropped.status).toBe(204);

    const renewed = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/push/subscriptions',
    );
    await page.goto('/employee');
    expect((await renewed).status()).toBe(201);

    // And the next reminder reaches this device again.
    const before = pushService.received.length;
    const reminder = await addReminder(leads.kiran!, new Date(Date.now() + 2_000), 'Back on');
    await pushService.waitFor(before + 1, 30_000);
    const latest = pushService.received.at(-1)!;
    expect(latest.path).toBe(testDevice.path);
    expect(JSON.parse(testDevice.decrypt(latest.body))).toMatchObject({
      leadName: 'Kiran Shah',
      note: 'Back on',
    });
    // Done, so the tests below see only their own follow-ups of this lead.
    await call(`LeadStatus/reminders/${reminder.reminderId}`, employee.token, {
      method: 'PUT',
      body: { done: true },
    });
  });

  it('after Call on a card and coming back, opens the note modal on Call Status, unless dismissed today', async () => {
    await page.goto('/employee');
    const card = page.getByRole('article', { name: 'Vikram Rao' });
    await card.waitFor();
    await card.getByRole('link', { name: 'Call Vikram Rao' }).click();
    expect(new URL(page.url()).pathname).toBe('/employee');
    await leaveAndComeBack(page);

    const modal = page.getByRole('dialog', { name: `Add Note — Lead #${leads.vikram!.leadID}` });
    await modal.waitFor();
    expect(await modal.getByLabel('Call Status').evaluate((el) => el === document.activeElement)).toBe(true);
    await shot(page, 'post-call-phone');
    // Closed without a note: not again for this lead today.
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'detached' });
    await card.getByRole('link', { name: 'Call Vikram Rao' }).click();
    await leaveAndComeBack(page);
    await page.getByRole('button', { name: 'Add Note for Vikram Rao' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Another lead still prompts; coming back without having left (no hide) does not.
    await page
      .getByRole('article', { name: 'Kiran Shah' })
      .getByRole('link', { name: 'Call Kiran Shah' })
      .click();
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(await page.getByRole('dialog').count()).toBe(0);
    await leaveAndComeBack(page);
    await page.getByRole('dialog', { name: `Add Note — Lead #${leads.kiran!.leadID}` }).waitFor();
  });
});

describe('follow-ups offline', () => {
  it('opens Today from the device with the overdue ones, and the board shows them on cards and as a banner', async () => {
    await addReminder(leads.kiran!, new Date(Date.now() - 3 * 3600_000), 'Send the brochure');
    const later = new Date();
    const laterToday = later.getHours() < 22;
    if (laterToday) later.setHours(later.getHours() + 1, 30, 0, 0);
    else later.setDate(later.getDate() + 1);
    await addReminder(leads.vikram!, later, 'Confirm the site visit');
    await addReminder(leads.anita!, new Date(Date.now() + 3 * 86_400_000), 'Price list for 3 BHK');

    for (const [name, view] of [
      ['phone', phone],
      ['desktop', desktop],
    ] as const) {
      const context = await browser.newContext({ ...view, baseURL: server.url });
      const page = await context.newPage();
      await signIn(page);
      await page.getByRole('article', { name: 'Kiran Shah' }).waitFor();
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      const kiran = page.getByRole('article', { name: 'Kiran Shah' });
      await kiran.getByText(/^Overdue: follow up /).waitFor();

      await context.setOffline(true);
      await page.goto('/today');
      const overdue = page.getByRole('region', { name: /^Overdue \d+$/ });
      await overdue.getByRole('listitem', { name: /^Kiran Shah,/ }).waitFor();
      await overdue.getByText('Send the brochure').waitFor();
      await page.getByText('Offline', { exact: true }).waitFor();
      const upcoming = page.getByRole('region', { name: /^Upcoming \d+$/ });
      await upcoming.getByRole('listitem', { name: /^Anita Desai,/ }).waitFor();
      if (laterToday)
        await page
          .getByRole('region', { name: /^Due today \d+$/ })
          .getByRole('listitem', { name: /^Vikram Rao,/ })
          .waitFor();
      await shot(page, `today-${name}`);

      await page.goto('/employee');
      await page
        .getByRole('status')
        .filter({ hasText: /follow-ups? (is|are) overdue/ })
        .waitFor();
      const card = page.getByRole('article', { name: 'Vikram Rao' });
      await card.getByText(laterToday ? /^Follow up today \d\d:30$/ : /^Follow up tomorrow/).waitFor();
      await card.scrollIntoViewIfNeeded();
      await shot(page, `board-follow-up-${name}`);
      await context.close();
    }
  });
});
