import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../contract/lead-status';
import type { Lead } from '../../contract/leads';
import { syncMessages } from '../../contract/sync';
import { buildRegistration } from '../helpers/test-server';
import {
  type ApiInit,
  apiCall,
  apiLogin,
  launchBrowser,
  phone,
  type RunningServer,
  startBuiltServer,
} from './support/harness';

// Issue 6, Faults, outbox: a note saved offline survives a reload and a closed tab (it lives in
// IndexedDB, not in the page), and syncs exactly once from the next page — even when the
// server's answer to it is lost on the way back, since the resend carries the same
// Idempotency-Key and gets the first answer replayed.

const admin = { email: 'owner@outbox.test', password: 'Owner@2026' };
const NOTE = 'Offline note: wants a corner flat, call Monday';
let browser: Browser;
let server: RunningServer;
let adminToken: string;
let employee: { email: string; password: string };
let lead: Lead;

const call = <T>(path: string, token: string, init?: ApiInit) => apiCall<T>(server, path, token, init);
const login = (email: string, password: string) => apiLogin(server, email, password);

const notesOnServer = async () =>
  (await call<HistoryEntry[]>(`LeadStatus/leads/${lead.leadID}/history`, adminToken)).map((n) => n.notes);

const card = (page: Page) => page.getByRole('article', { name: lead.name });

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  adminToken = await login(admin.email, admin.password);
  const body = buildRegistration({ email: 'outbox.agent@agency.test', password: 'Agent@2026x' });
  await call('Registration', adminToken, { method: 'POST', body });
  employee = { email: body.email, password: body.password };
  lead = await call<Lead>('Admin/leads', adminToken, {
    method: 'POST',
    body: { name: 'Meera Pillai', phoneNo: '9830012345', assignedTo: employee.email, location: 'Powai' },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a note saved offline', () => {
  let context: BrowserContext;
  afterAll(() => context?.close());

  it('survives a reload and a closed tab, then syncs exactly once though its first answer is lost', async () => {
    context = await browser.newContext({ ...phone, baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Email-ID').fill(employee.email);
    await page.getByLabel('Password', { exact: true }).fill(employee.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/employee');
    await card(page).waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    await context.setOffline(true);
    await page.getByRole('button', { name: `Add Note for ${lead.name}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Call Status').selectOption({ label: 'Connected' });
    await dialog.getByLabel('Client Status').selectOption({ label: 'Interested' });
    await dialog.getByRole('checkbox', { name: 'Andheri' }).check();
    await dialog.getByRole('checkbox', { name: '3 BHK' }).check();
    await dialog.getByLabel('Description').fill(NOTE);
    await dialog.getByRole('button', { name: 'Save Note' }).click();
    await dialog.getByRole('region', { name: 'Last Saved' }).getByText(NOTE).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByText(syncMessages.waiting(1)).waitFor();

    // Reloaded with no network: the note is still there, still waiting.
    await page.reload();
    await card(page).getByText(syncMessages.pending).waitFor();
    await page.getByText(syncMessages.waiting(1)).waitFor();

    // The tab is closed before the network returns: nothing has reached the server.
    await page.close();
    expect(await notesOnServer()).toEqual([]);

    // Online again, a new tab. The first time the note reaches the server, its answer is lost.
    await context.setOffline(false);
    // The outbox sends its rows in one POST /api/sync (issue 18); each op's answer is its call's.
    const posts: number[] = [];
    let lost = 0;
    const noteStatus = async (response: { json(): Promise<unknown> }) =>
      ((await response.json()) as { results: { status: number }[] }).results[0]!.status;
    await context.route('**/api/sync', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const response = await route.fetch();
      posts.push(await noteStatus(response));
      if (lost === 0) {
        lost += 1;
        return route.abort('connectionreset');
      }
      return route.fulfill({ response });
    });
    const next = await context.newPage();
    await next.goto('/employee');
    await card(next).waitFor();
    await next.getByText(/changes? waiting to sync/).waitFor({ state: 'detached', timeout: 30_000 });
    await card(next).getByText(syncMessages.pending).waitFor({ state: 'detached' });

    expect(lost).toBe(1);
    // The server ran the note once; the resend got that answer back (its idempotency record).
    expect(posts).toEqual([201, 201]);
    expect(await notesOnServer()).toEqual([NOTE]);
    // Another reload sends nothing more.
    await next.reload();
    await card(next).waitFor();
    expect(posts).toHaveLength(2);
    expect(await notesOnServer()).toEqual([NOTE]);
  });
});
