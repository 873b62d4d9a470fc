import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lead } from '../../contract/leads';
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

// Issue 17: any lead's story is one tap away — from a board card for its holder, from the Leads
// List for an admin — and a cached lead still opens offline.
const admin = { email: 'owner@agency.test', password: 'Owner@2026' };
let browser: Browser;
let server: RunningServer;
let adminToken: string;
let agent: { email: string; password: string; token: string };
let lead: Lead;

const call = <T>(p: string, token: string, init?: ApiInit) => apiCall<T>(server, p, token, init);
const shotsDir = '/work/shots';

async function shoot(page: Page, name: string) {
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `staff-${name}.png`), fullPage: true });
}

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  adminToken = await apiLogin(server, admin.email, admin.password);
  const body = buildRegistration({ email: 'priya.agent@agency.test', password: 'Agent@2026x' });
  await call('Registration', adminToken, { method: 'POST', body });
  agent = {
    email: body.email,
    password: body.password,
    token: await apiLogin(server, body.email, body.password),
  };
  lead = await call<Lead>('Admin/leads', adminToken, {
    method: 'POST',
    body: {
      name: 'Kavita Menon',
      phoneNo: '9876012345',
      siteVisit: 'Riverside',
      email: 'kavita@example.com',
    },
  });
  const employees = await call<{ registrationId: number; email: string }[]>('Admin/employees', adminToken);
  const agentId = employees.find((e) => e.email === agent.email)!.registrationId;
  await call('Admin/assign', adminToken, {
    method: 'POST',
    body: { employeeId: agentId, leadIds: [lead.leadID] },
  });
  const statuses = await call<{ clientStatusId: number; clientStat: string }[]>(
    'LeadStatus/client-statuses',
    agent.token,
  );
  const calls = await call<{ callStatusId: number }[]>('LeadStatus/call-statuses', agent.token);
  await call('LeadStatus', agent.token, {
    method: 'POST',
    body: {
      leadId: lead.leadID,
      notes: 'Wants a corner flat, will visit on Sunday',
      callStatusId: calls[0]!.callStatusId,
      clientStatusId: statuses.find((s) => s.clientStat === 'Interested')!.clientStatusId,
    },
  });
  await call('LeadStatus/add-reminder', agent.token, {
    method: 'POST',
    body: {
      leadId: lead.leadID,
      reminderTime: new Date(Date.now() + 86_400_000).toISOString(),
      note: 'Confirm visit',
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the lead page', () => {
  let context: BrowserContext;
  afterAll(() => context?.close());

  it("opens from the holder's board card, shows the story, and offline shows the cached lead", async () => {
    context = await browser.newContext({ ...phone, baseURL: server.url });
    const page = await context.newPage();
    await signIn(page, agent);
    await page.waitForURL('**/employee');
    const card = page.getByRole('article', { name: 'Kavita Menon' });
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: path.join(shotsDir, 'staff-board-card-link-phone.png') });
    await card.getByRole('link', { name: 'Kavita Menon', exact: true }).click();
    await page.waitForURL(`**/leads/${lead.leadID}`);
    await page.getByRole('heading', { level: 1, name: 'Kavita Menon' }).waitFor();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText('Wants a corner flat, will visit on Sunday').waitFor();
    const titles = await timeline.locator('.lead-timeline-title').allTextContents();
    expect(titles).toEqual([
      `Added by ${admin.email}`,
      `Assigned to ${agent.email}`,
      'Status set to Interested',
      expect.stringContaining(`Note by ${agent.email}`),
      expect.stringContaining('Follow-up set for'),
    ]);
    await expect(page.getByRole('link', { name: 'Call Kavita Menon' }).getAttribute('href')).resolves.toBe(
      'tel:9876012345',
    );
    await shoot(page, 'lead-page-phone');

    // Back on the board the card is where it was; offline, its page shows what the device has.
    await page.getByRole('button', { name: '← Back' }).click();
    await page.waitForURL('**/employee');
    await context.setOffline(true);
    await page
      .getByRole('article', { name: 'Kavita Menon' })
      .getByRole('link', { name: 'Kavita Menon', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Kavita Menon' }).waitFor();
    await page.getByText('the timeline needs a connection').waitFor();
    await shoot(page, 'lead-page-offline-phone');
    await context.setOffline(false);
  });

  it('opens from the Leads List for an admin on a desktop', async () => {
    const adminContext = await browser.newContext({ ...desktop, baseURL: server.url });
    const page = await adminContext.newPage();
    await signIn(page, admin);
    await page.waitForURL('**/dashboard');
    await page.goto('/leads');
    await page.getByRole('link', { name: 'Kavita Menon', exact: true }).click();
    await page.waitForURL(`**/leads/${lead.leadID}`);
    await page.getByRole('list', { name: 'Timeline' }).getByText(`Assigned to ${agent.email}`).waitFor();
    await expect(page.getByText(agent.email, { exact: true }).first().isVisible()).resolves.toBe(true);
    await shoot(page, 'lead-page-desktop');
    await adminContext.close();
  });

  it('downloads the Leads List search and the dashboard view as .xlsx', async () => {
    await call<Lead>('Admin/leads', adminToken, {
      method: 'POST',
      body: { name: 'Zubin Mistry', phoneNo: '9876012399', siteVisit: 'Hill View' },
    });
    const adminContext = await browser.newContext({ ...desktop, baseURL: server.url, acceptDownloads: true });
    const page = await adminContext.newPage();
    await signIn(page, admin);
    await page.waitForURL('**/dashboard');
    const names = async (button: ReturnType<Page['getByRole']>) => {
      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      expect(download.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const book = XLSX.read(fs.readFileSync((await download.path())!), { type: 'buffer' });
      const rows = XLSX.utils.sheet_to_json<Record<string, string>>(book.Sheets.Leads!);
      return rows.map((r) => r.Name).sort();
    };
    // The dashboard opens on unassigned leads: Kavita is held by Priya, Zubin is not.
    await page.getByRole('link', { name: 'Zubin Mistry' }).waitFor();
    await shoot(page, 'dashboard-export-desktop');
    expect(await names(page.getByRole('button', { name: 'Export to Excel' }))).toEqual(['Zubin Mistry']);
    await page.getByLabel('Show All Leads').check();
    await page.getByRole('link', { name: 'Kavita Menon' }).waitFor();
    expect(await names(page.getByRole('button', { name: 'Export to Excel' }))).toEqual([
      'Kavita Menon',
      'Zubin Mistry',
    ]);

    await page.goto('/leads');
    await page.getByRole('searchbox', { name: 'Search by Name, Email, or Contact' }).fill('kavita');
    await page.waitForURL('**/leads?search=kavita');
    await page.getByRole('link', { name: 'Zubin Mistry' }).waitFor({ state: 'detached' });
    await shoot(page, 'leads-list-export-desktop');
    expect(await names(page.getByRole('button', { name: 'Export to Excel' }))).toEqual(['Kavita Menon']);
    await adminContext.close();
  });
});
