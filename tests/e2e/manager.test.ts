import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Lead } from '../../contract/leads';
import { Role } from '../../contract/roles';
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

// Issue 17: a Manager signs in, lands on the team dashboard and drills into a campaign, on a
// desktop and on a phone.
const admin = { email: 'owner@agency.test', password: 'Owner@2026' };
const manager = { email: 'lead.manager@agency.test', password: 'Manager@2026' };
let browser: Browser;
let server: RunningServer;
let adminToken: string;

const call = <T>(path: string, token: string, init?: ApiInit) => apiCall<T>(server, path, token, init);

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  adminToken = await apiLogin(server, admin.email, admin.password);
  await call('Registration', adminToken, {
    method: 'POST',
    body: buildRegistration({ ...manager, roleId: Role.Manager }),
  });
  const campaigns = ['Riverside', 'Hill View', 'Palm Grove'];
  let phoneNo = 40_000_000;
  for (const [name, notes] of [
    ['priya.sales', 5],
    ['arjun.sales', 2],
    ['neha.sales', 8],
  ] as const) {
    const body = buildRegistration({ email: `${name}@agency.test`, password: 'Agent@2026x' });
    await call('Registration', adminToken, { method: 'POST', body });
    const token = await apiLogin(server, body.email, body.password);
    for (let i = 0; i < notes; i++) {
      phoneNo += 1;
      const lead = await call<Lead>('Admin/leads', adminToken, {
        method: 'POST',
        body: {
          name: `${name.split('.')[0]} lead ${i + 1}`,
          phoneNo: `98${phoneNo}`,
          siteVisit: campaigns[i % 3],
          assignedTo: body.email,
        },
      });
      await call('LeadStatus', token, {
        method: 'POST',
        body: { leadId: lead.leadID, notes: 'Called', callStatusId: 1, clientStatusId: 1 + (i % 3) },
      });
    }
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signInAsManager(page: Page) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(manager.email);
  await page.getByLabel('Password', { exact: true }).fill(manager.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/manager');
}

describe('the Manager dashboard', () => {
  for (const [size, options] of [
    ['desktop', desktop],
    ['phone', phone],
  ] as const) {
    it(`lands a Manager there and drills into a campaign (${size})`, async () => {
      const context = await browser.newContext({ ...options, baseURL: server.url });
      const page = await context.newPage();
      await signInAsManager(page);
      const employees = page.getByRole('region', { name: 'Employees' });
      await employees.getByRole('rowheader', { name: 'neha.sales@agency.test' }).waitFor();
      await page.locator('.manager-chart svg').waitFor();
      await screenshot(context, `manager-${size}`);
      await page.getByRole('region', { name: 'Funnel' }).scrollIntoViewIfNeeded();
      await screenshot(context, `manager-funnel-${size}`);
      await page
        .getByRole('region', { name: 'Campaigns' })
        .getByRole('button', { name: 'Riverside' })
        .click();
      const drill = page.getByRole('region', { name: /Leads of Riverside/ });
      await drill.getByText('neha lead 1', { exact: true }).waitFor();
      await screenshot(context, `manager-drill-${size}`);
      await context.close();
    });
  }
});
