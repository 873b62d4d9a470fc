import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lead } from '../../contract/leads';
import { messages } from '../../contract/messages';
import { buildRegistration } from '../helpers/test-server';
import {
  type ApiInit,
  apiCall,
  apiLogin,
  desktop,
  launchBrowser,
  phone,
  type RunningServer,
  screenshot,
  startBuiltServer,
} from './support/harness';

// Issue 17: an admin handles a resignation on the Employees screen; the leaver's board drops the
// lead on its next refresh and the account can no longer sign in.
const admin = { email: 'owner@agency.test', password: 'Owner@2026' };
let browser: Browser;
let server: RunningServer;
let adminToken: string;
const people: Record<'leaving' | 'taker', { email: string; password: string; id: number }> = {} as never;

const call = <T>(path: string, token: string, init?: ApiInit) => apiCall<T>(server, path, token, init);

async function register(email: string) {
  const body = buildRegistration({ email, password: 'Agent@2026x' });
  const answer = await call<{ registrationId: number }>('Registration', adminToken, { method: 'POST', body });
  return { email, password: body.password, id: answer.registrationId };
}

let phoneCounter = 0;
function addLead(name: string, holder: string): Promise<Lead> {
  phoneCounter += 1;
  return call<Lead>('Admin/leads', adminToken, {
    method: 'POST',
    body: {
      name,
      phoneNo: `98${String(30_000_000 + phoneCounter)}`,
      siteVisit: 'Riverside',
      assignedTo: holder,
    },
  });
}

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

const card = (page: Page, name: string) => page.getByRole('article', { name });

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  adminToken = await apiLogin(server, admin.email, admin.password);
  people.leaving = await register('leaving.agent@agency.test');
  people.taker = await register('staying.agent@agency.test');
  await addLead('Meera Iyer', people.leaving.email);
  await addLead('Sunil Kapoor', people.leaving.email);
  await addLead('Farah Khan', people.taker.email);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a resignation on the Employees screen', () => {
  let leaverContext: BrowserContext;
  let adminContext: BrowserContext;
  let leaver: Page;
  let adminPage: Page;

  beforeAll(async () => {
    leaverContext = await browser.newContext({ ...phone, baseURL: server.url });
    adminContext = await browser.newContext({ ...desktop, baseURL: server.url });
    leaver = await leaverContext.newPage();
    adminPage = await adminContext.newPage();
  });
  afterAll(async () => {
    await leaverContext?.close();
    await adminContext?.close();
  });

  it("moves a chosen lead, which leaves the old holder's board on its next refresh", async () => {
    await signIn(leaver, people.leaving);
    await leaver.waitForURL('**/employee');
    await card(leaver, 'Meera Iyer').waitFor();
    await card(leaver, 'Sunil Kapoor').waitFor();

    await signIn(adminPage, admin);
    await adminPage.waitForURL('**/dashboard');
    await adminPage.getByRole('link', { name: 'Employees' }).click();
    await adminPage.getByRole('heading', { name: 'Employees' }).waitFor();
    const row = adminPage.getByRole('row', { name: new RegExp(people.leaving.email) });
    await row.getByRole('cell', { name: 'Active' }).waitFor();
    await screenshot(adminContext, 'staff-desktop');

    await row.getByRole('button', { name: `Reassign leads of ${people.leaving.email}` }).click();
    const panel = adminPage.getByRole('region', { name: `Reassign leads of ${people.leaving.email}` });
    await panel.getByRole('radio', { name: 'Only the leads I choose' }).check();
    await panel.getByRole('checkbox', { name: /Meera Iyer/ }).check();
    await panel
      .getByRole('combobox', { name: 'Move them to' })
      .selectOption({ label: `${people.taker.email} (1 open)` });
    await screenshot(adminContext, 'staff-reassign-desktop');
    await panel.getByRole('button', { name: 'Move 1 lead' }).click();
    await adminPage.getByText(`Moved 1 lead: ${people.taker.email} (1)`).waitFor();

    // The old holder's device: its next refresh (here a reload) drops the lead, keeps the other.
    await leaver.reload();
    await card(leaver, 'Sunil Kapoor').waitFor();
    await card(leaver, 'Meera Iyer').waitFor({ state: 'detached' });
    const taken = await call<Lead[]>(`Admin/leads?employeeId=${people.taker.id}`, adminToken);
    expect(taken.map((l) => l.name).sort()).toEqual(['Farah Khan', 'Meera Iyer']);
  });

  it('deactivates the account: its session ends and sign-in says why', async () => {
    adminPage.once('dialog', (dialog) => void dialog.accept());
    const row = adminPage.getByRole('row', { name: new RegExp(people.leaving.email) });
    await row.getByRole('button', { name: `Deactivate ${people.leaving.email}` }).click();
    await row.getByRole('cell', { name: 'Inactive' }).waitFor();
    // The resignation's next step opens by itself: move the remaining lead on, spread.
    const panel = adminPage.getByRole('region', { name: `Reassign leads of ${people.leaving.email}` });
    await panel.waitFor();
    await panel.getByRole('button', { name: 'Move 1 lead' }).click();
    await adminPage.getByText(`Moved 1 lead: ${people.taker.email} (1)`).last().waitFor();
    await screenshot(adminContext, 'staff-after-resignation-desktop');

    // Its next call is refused: the app ends the session and shows the sign-in form.
    await leaver.reload();
    await leaver.waitForURL('**/login');
    await leaver.getByLabel('Email-ID').fill(people.leaving.email);
    await leaver.getByLabel('Password', { exact: true }).fill(people.leaving.password);
    await leaver.getByRole('button', { name: 'Login' }).click();
    await leaver.getByText(messages.login.deactivated).waitFor();
    await screenshot(leaverContext, 'staff-deactivated-login-phone');
  });

  it('reads well on a phone', async () => {
    const context = await browser.newContext({ ...phone, baseURL: server.url });
    const page = await context.newPage();
    await signIn(page, admin);
    await page.waitForURL('**/dashboard');
    await page.goto('/staff');
    await page.getByRole('rowheader', { name: people.taker.email }).waitFor();
    await screenshot(context, 'staff-phone');
    await page.getByRole('button', { name: `Reassign leads of ${people.taker.email}` }).click();
    await page.getByRole('region', { name: `Reassign leads of ${people.taker.email}` }).waitFor();
    await screenshot(context, 'staff-reassign-phone');
    await context.close();
  });
});
