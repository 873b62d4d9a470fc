import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lead } from '../../contract/leads';
import { createTestDevice, type FakePushService, startFakePushService } from '../helpers/push-service';
import { buildRegistration } from '../helpers/test-server';
import {
  type ApiInit,
  apiCall,
  apiLogin,
  launchBrowser,
  phone,
  type RunningServer,
  screenshot,
  startBuiltServer,
} from './support/harness';

// Issue 16, finding 6, in Chromium against the real server: two employees share one phone (one
// browser profile). E1 signs in, turns on notifications, searches, signs out; E2 signs in. Before
// the fix the browser's HTTP cache still answered E1's search to a request that sends no token
// (`cache: 'only-if-cached'`), and IndexedDB still held E1's reminders.
//
// The push service is the stand-in tests/e2e/follow-ups.test.ts explains: headless Chromium cannot
// reach Google's, so PushManager hands out a subscription at a push service on loopback.

const admin = { email: 'owner@shared.test', password: 'Owner@2026' };
const SECRET = 'Secretlead';
const REMINDER_NOTE = 'Bring the sea-view brochure';
let browser: Browser;
let server: RunningServer;
let pushService: FakePushService;
let adminToken: string;
const e1 = { email: 'first.agent@shared.test', password: 'First@2026x', token: '' };
const e2 = { email: 'second.agent@shared.test', password: 'Second@2026x', token: '' };

const call = <T>(p: string, token: string, init?: ApiInit) => apiCall<T>(server, p, token, init);

async function register(account: typeof e1) {
  const body = buildRegistration({ email: account.email, password: account.password });
  await call('Registration', adminToken, { method: 'POST', body });
  account.token = await apiLogin(server, account.email, account.password);
}

let phoneCounter = 0;
function addLead(name: string, owner: typeof e1): Promise<Lead> {
  phoneCounter += 1;
  return call<Lead>('Admin/leads', adminToken, {
    method: 'POST',
    body: { name, phoneNo: `97${String(30_000_000 + phoneCounter)}`, assignedTo: owner.email },
  });
}

async function signIn(page: Page, account: typeof e1) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/employee');
}

/** Every record of every LeadNest IndexedDB database on this device, as text. */
function deviceData(page: Page): Promise<{ names: string[]; text: string }> {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases())
      .map((d) => d.name ?? '')
      .filter((n) => n.startsWith('leadnest-'));
    const dump: unknown[] = [];
    for (const name of names) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const rows = await new Promise<unknown[]>((resolve, reject) => {
          const all = db.transaction(store).objectStore(store).getAll();
          all.onsuccess = () => resolve(all.result);
          all.onerror = () => reject(all.error);
        });
        dump.push({ name, store, rows });
      }
      db.close();
    }
    return { names, text: JSON.stringify(dump) };
  });
}

/** What the browser's HTTP cache answers for `url` without going to the network (no token sent). */
function fromHttpCache(page: Page, url: string): Promise<string> {
  return page.evaluate(async (u) => {
    try {
      const res = await fetch(u, { cache: 'only-if-cached', mode: 'same-origin' });
      return `${res.status} ${await res.text()}`;
    } catch {
      return 'nothing cached';
    }
  }, url);
}

const subscriptionsOf = (email: string): number => {
  const db = new SQLite(path.join(server.dataDir, 'leadnest.sqlite'), { readonly: true });
  try {
    const row = db
      .prepare(
        'select count(*) as n from push_subscriptions s join users u on u.id = s.user_id where u.email = ?',
      )
      .get(email) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  pushService = await startFakePushService();
  browser = await launchBrowser();
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  adminToken = await apiLogin(server, admin.email, admin.password);
  await register(e1);
  await register(e2);
  const mine = await addLead(`Zubin ${SECRET}`, e1);
  await addLead(`Yasmin ${SECRET}`, e1);
  await addLead('Farah Open', e2);
  await call('LeadStatus/add-reminder', e1.token, {
    method: 'POST',
    body: {
      leadId: mine.leadID,
      reminderTime: new Date(Date.now() + 86_400_000).toISOString(),
      note: REMINDER_NOTE,
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await pushService?.close();
});

describe('one phone, two employees', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const device = createTestDevice(pushService);
    context = await browser.newContext({ ...phone, baseURL: server.url });
    await context.grantPermissions(['notifications'], { origin: server.url });
    await context.addInitScript((subscription) => {
      let current: unknown = null;
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        current = {
          endpoint: subscription.endpoint,
          expirationTime: null,
          options: { applicationServerKey: options?.applicationServerKey, userVisibleOnly: true },
          toJSON: () => subscription,
          unsubscribe: async () => {
            current = null;
            return true;
          },
        };
        return current as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
    }, device.subscription);
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  it("leaves the next user nothing of the last one's: no cached answer, no IndexedDB data, no live token or push", async () => {
    await signIn(page, e1);
    await page.getByRole('article', { name: `Zubin ${SECRET}` }).waitFor();
    const offer = page.getByRole('region', { name: 'Get follow-up reminders on this device' });
    await offer.getByRole('button', { name: 'Turn on notifications' }).click();
    await page.getByText('Notifications are on for this device.').waitFor();
    await page.getByText('Notifications are on for this device.').waitFor({ state: 'detached' });
    expect(subscriptionsOf(e1.email)).toBe(1);

    // E1's search, as the app sends it.
    const searched = page.waitForRequest((r) => r.url().includes('/api/Search/leads'));
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('searchbox', { name: 'Search leads' }).fill(SECRET);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const searchUrl = (await searched).url();
    await page
      .getByRole('region', { name: `Results for “${SECRET}”` })
      .getByText('2 leads found.')
      .waitFor();
    // The device holds E1's leads and reminder while E1 is signed in: what must go at sign-out.
    await expect.poll(async () => (await deviceData(page)).text.includes(REMINDER_NOTE)).toBe(true);
    expect((await deviceData(page)).text).toContain(SECRET);
    const e1Token = await page.evaluate(() => localStorage.getItem('token'));

    const calls: string[] = [];
    const record = (r: Request) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/api/push/subscriptions') || pathname.startsWith('/api/Registration/logout'))
        calls.push(`${r.method()} ${pathname}`);
    };
    page.on('request', record);
    const menu = page.getByRole('button', { name: 'Menu' });
    if ((await page.getByRole('button', { name: 'Logout' }).count()) === 0) await menu.click();
    await page.getByRole('button', { name: 'Logout' }).first().click();
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    page.off('request', record);

    // The device's push subscription goes while the token still works, then the token ends.
    expect(calls).toEqual(['DELETE /api/push/subscriptions', 'POST /api/Registration/logout']);
    expect(subscriptionsOf(e1.email)).toBe(0);
    const withOldToken = await fetch(`${server.url}/api/Search/leads?q=${SECRET}`, {
      headers: { authorization: `Bearer ${e1Token}` },
    });
    expect(withOldToken.status).toBe(401);
    expect(await fromHttpCache(page, searchUrl)).toBe('nothing cached');

    await signIn(page, e2);
    await page.getByRole('article', { name: 'Farah Open' }).waitFor();
    await screenshot(context, 'shared-device-second-user-phone');
    expect(await fromHttpCache(page, searchUrl)).toBe('nothing cached');
    const device = await deviceData(page);
    expect(device.names).not.toContain(`leadnest-${e1.email}`);
    expect(device.text).not.toContain(SECRET);
    expect(device.text).not.toContain(REMINDER_NOTE);
  });
});
