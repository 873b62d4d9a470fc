import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import SQLite from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../contract/messages';
import { Role } from '../../contract/roles';
import { buildRegistration } from '../helpers/test-server';
import {
  apiCall,
  apiLogin,
  desktop,
  launchBrowser,
  phone,
  type RunningServer,
  screenshot,
  startBuiltServer,
} from './support/harness';

// Issue 19: the Leads List's filters and a very long name, in Chromium at desktop and phone sizes.
const admin = { email: 'owner@agency.test', password: 'Owner@2026' };
const longName = `Shri ${'Venkatanarasimharajuvaripeta Ramakrishna '.repeat(5)}`.slice(0, 200);
let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  const token = await apiLogin(server, admin.email, admin.password);
  const employees: { email: string; password: string; id: number }[] = [];
  for (const name of ['priya', 'arjun']) {
    const body = buildRegistration({ roleId: Role.Employee, email: `${name}.field.agent@agency.test` });
    const { registrationId } = await apiCall<{ registrationId: number }>(server, 'Registration', token, {
      method: 'POST',
      body,
    });
    employees.push({ email: body.email, password: body.password, id: registrationId });
  }
  // Leads come from uploads in the product; they are written into the server's own SQLite file.
  const database = new SQLite(path.join(server.dataDir, 'leadnest.sqlite'));
  database.pragma('busy_timeout = 5000');
  const insert = database.prepare(
    `insert into leads (name, email, phone, configuration, site_visit, location, interested_in, assigned_to_id, created_at)
     values (?, ?, ?, '2 BHK', ?, 'Baner', '', ?, ?)`,
  );
  const leads: [string, string, number | null][] = [
    [longName, 'Green Acres Phase II Riverside Extension', employees[0]!.id],
    ['Asha Rao', 'Green Acres Phase II Riverside Extension', employees[0]!.id],
    ['Bala Iyer', 'Hill View', employees[1]!.id],
    ['Chitra Nair', 'Hill View', null],
    ['Dev Mehta', 'Lake Shore', null],
    ['Esha Gupta', '', null],
  ];
  leads.forEach(([name, campaign, holder], i) => {
    const email = `${name.split(' ')[0]!.toLowerCase()}.${i}@example.com`;
    insert.run(
      name,
      email,
      `98765${String(43210 + i).padStart(5, '0')}`,
      campaign,
      holder,
      new Date().toISOString(),
    );
  });
  database.close();
});
afterAll(async () => {
  await server?.stop();
  await browser?.close();
});

async function openList(page: Page) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/dashboard');
  await page.goto('/leads');
  await page.getByRole('heading', { name: 'Leads List' }).waitFor();
  await page.getByRole('option', { name: 'Hill View' }).waitFor({ state: 'attached' });
}

const nameCells = (page: Page) => page.locator('.leads-table tbody tr td:nth-child(2)').allTextContents();

describe('Leads List filters in Chromium', () => {
  it('filters from the keyboard, and a 200-character name wraps in its own column', async () => {
    const context = await browser.newContext({ ...desktop, baseURL: server.url, acceptDownloads: true });
    const page = await context.newPage();
    await openList(page);
    await expect.poll(() => nameCells(page)).toHaveLength(5);

    // The height of a cell's text: one line is about 24 px.
    const textHeight = (name: string) =>
      page.getByRole('cell', { name, exact: true }).evaluate((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        return range.getBoundingClientRect().height;
      });
    // The name wraps over several lines; phone and email stay on one and the buttons side by side.
    expect(await textHeight(longName)).toBeGreaterThan(60);
    expect(await textHeight('9876543210')).toBeLessThan(30);
    expect(await textHeight('shri.0@example.com')).toBeLessThan(30);
    expect(await textHeight('asha.1@example.com')).toBeLessThan(30);
    const edit = await page.getByRole('button', { name: `Edit ${longName}` }).boundingBox();
    const del = await page.getByRole('button', { name: `Delete ${longName}` }).boundingBox();
    expect(Math.abs(edit!.y - del!.y)).toBeLessThan(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    await screenshot(context, 'leads-list-long-name-desktop');
    // A narrow window still keeps the email and phone on one line each.
    await page.setViewportSize({ width: 800, height: 900 });
    expect(await textHeight(longName)).toBeGreaterThan(60);
    expect(await textHeight('9876543210')).toBeLessThan(30);
    expect(await textHeight('asha.1@example.com')).toBeLessThan(30);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await screenshot(context, 'leads-list-long-name-800');
    await page.setViewportSize(desktop.viewport);

    // Keyboard only: from the search box, Tab past Per page and Export to Campaign, then arrow down.
    const campaign = page.getByLabel('Campaign');
    await page.getByPlaceholder(messages.leadsList.searchPlaceholder).focus();
    for (const _ of ['Per page', 'Export to Excel', 'Campaign']) await page.keyboard.press('Tab');
    expect(await campaign.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => campaign.inputValue()).toBe('=Hill View');
    await expect.poll(() => nameCells(page)).toEqual(['Bala Iyer', 'Chitra Nair']);
    await page.getByLabel('Employee').selectOption({ label: 'Unassigned' });
    await expect.poll(() => nameCells(page)).toEqual(['Chitra Nair']);
    await page.getByLabel('Status').selectOption({ label: 'Interested' });
    await page.getByText('No leads match these filters.').waitFor();
    await screenshot(context, 'leads-list-filters-empty-desktop');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => nameCells(page)).toHaveLength(5);

    // The export takes the same filters, "No campaign" included.
    await page.getByLabel('Campaign').selectOption({ label: 'No campaign' });
    await expect.poll(() => nameCells(page)).toEqual(['Esha Gupta']);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export to Excel' }).click(),
    ]);
    const book = XLSX.read(fs.readFileSync((await download.path())!), { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<Record<string, string>>(book.Sheets.Leads!);
    expect(rows.map((r) => r.Name)).toEqual(['Esha Gupta']);

    // The lead's page and Back: the list as it was left (the filters live in the address).
    await page.getByRole('link', { name: 'Esha Gupta' }).click();
    await page.waitForURL(/\/leads\/\d+$/);
    await page.goBack();
    await expect.poll(() => nameCells(page)).toEqual(['Esha Gupta']);
    expect(await page.getByLabel('Campaign').inputValue()).toBe('=');
    await context.close();
  });

  it('wraps the filters and the long name on a phone, with nothing wider than the screen', async () => {
    const context = await browser.newContext({ ...phone, baseURL: server.url });
    const page = await context.newPage();
    await openList(page);
    await expect.poll(() => nameCells(page)).toHaveLength(5);
    await page.getByLabel('Campaign').selectOption({ label: 'Green Acres Phase II Riverside Extension' });
    await expect.poll(() => nameCells(page)).toEqual([longName, 'Asha Rao']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const label of ['Campaign', 'Employee', 'Status']) {
      const box = await page.getByLabel(label).boundingBox();
      expect(box!.x + box!.width, label).toBeLessThanOrEqual(390);
    }
    await screenshot(context, 'leads-list-filters-phone');
    // The card's whole value column holds the name, not a sliver of it.
    const name = page.locator('.leads-cell-name a').first();
    expect((await name.boundingBox())!.width).toBeGreaterThan(200);
    await page.getByRole('button', { name: `Delete ${longName}` }).scrollIntoViewIfNeeded();
    await screenshot(context, 'leads-list-long-name-phone');
    await context.close();
  });
});
