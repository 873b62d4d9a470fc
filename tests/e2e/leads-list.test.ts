import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../contract/messages';
import { buildRegistration } from '../helpers/test-server';
import {
  desktop,
  launchBrowser,
  phone,
  type RunningServer,
  screenshot,
  startBuiltServer,
} from './support/harness';

const admin = { email: 'owner@agency.test', password: 'Owner@2026' };
const m = messages.leadsList;
let browser: Browser;
let server: RunningServer;
let database: SQLite.Database;
let employee: { email: string; password: string; id: number };

const names = [
  'Asha Rao',
  'Bala Iyer',
  'Chitra Nair',
  'Dev Mehta',
  'Esha Gupta',
  'Farah Khan',
  'Gopal Rao',
  'Hari Menon',
  'Isha Sen',
  'Jay Shah',
  'Kavya Rao',
  'Lina Das',
];

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  // Leads come from spreadsheet uploads in the product; the test writes them into the server's
  // own database file (WAL mode lets the two processes share it).
  database = new SQLite(path.join(server.dataDir, 'leadnest.sqlite'));
  database.pragma('busy_timeout = 5000');

  const login = await fetch(`${server.url}/api/Registration/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const { token } = (await login.json()) as { token: string };
  const body = buildRegistration({ email: 'field.agent@agency.test', password: 'Agent@2026x' });
  const registered = await fetch(`${server.url}/api/Registration`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  employee = {
    email: body.email,
    password: body.password,
    id: ((await registered.json()) as { registrationId: number }).registrationId,
  };

  const insert = database.prepare(
    `insert into leads (name, email, phone, configuration, site_visit, location, interested_in, assigned_to_id, created_at)
     values (?, ?, ?, '2 BHK', 'Green Acres', 'Baner', '2 BHK', ?, ?)`,
  );
  names.forEach((name, i) => {
    const email = `${name.toLowerCase().replace(' ', '.')}@example.com`;
    insert.run(
      name,
      email,
      `98765${String(43210 + i).padStart(5, '0')}`,
      i % 3 === 0 ? employee.id : null,
      new Date().toISOString(),
    );
  });
});
afterAll(async () => {
  database?.close();
  await server?.stop();
  await browser?.close();
});

async function signIn(page: Page, email: string, password: string, landing: string) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`**${landing}`);
}

const nameCells = (page: Page) => page.locator('.leads-table tbody tr td:nth-child(2)').allTextContents();

async function waitForNames(page: Page, expected: string[]) {
  await expect.poll(() => nameCells(page), { timeout: 10_000 }).toEqual(expected);
}

describe('Leads List in Chromium', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await browser.newContext({ ...desktop, baseURL: server.url });
  });
  afterAll(() => context.close());

  it('searches, pages, edits and deletes leads', async () => {
    const page = await context.newPage();
    await signIn(page, admin.email, admin.password, '/dashboard');
    await page.goto('/leads');
    await page.getByRole('heading', { name: 'Leads List' }).waitFor();
    await waitForNames(page, names.slice(0, 5));
    expect(
      await page.getByRole('navigation', { name: 'Pages' }).getByRole('button').allTextContents(),
    ).toEqual(['1', '2', '3']);
    await screenshot(context, 'leads-list-desktop');

    await page.getByRole('button', { name: 'Page 3' }).click();
    await waitForNames(page, ['Kavya Rao', 'Lina Das']);

    // Typing goes back to page 1 of the matches.
    await page.getByPlaceholder(m.searchPlaceholder).fill('RAO');
    await waitForNames(page, ['Asha Rao', 'Gopal Rao', 'Kavya Rao']);
    await expect
      .poll(() => page.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current'))
      .toBe('page');
    await screenshot(context, 'leads-list-search-desktop');

    // Edit: the prompt's answer replaces the name; cancelling changes nothing.
    page.once('dialog', (dialog) => {
      expect(dialog.type()).toBe('prompt');
      expect(dialog.message()).toBe(m.editPrompt);
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Edit Gopal Rao' }).click();
    await waitForNames(page, ['Asha Rao', 'Gopal Rao', 'Kavya Rao']);
    page.once('dialog', (dialog) => void dialog.accept('Gopal Rao Jr'));
    await page.getByRole('button', { name: 'Edit Gopal Rao' }).click();
    await waitForNames(page, ['Asha Rao', 'Gopal Rao Jr', 'Kavya Rao']);

    // Delete: cancelled first, then confirmed.
    page.once('dialog', (dialog) => {
      expect(dialog.type()).toBe('confirm');
      expect(dialog.message()).toBe(m.confirmDelete);
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Delete Asha Rao' }).click();
    await waitForNames(page, ['Asha Rao', 'Gopal Rao Jr', 'Kavya Rao']);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete Asha Rao' }).click();
    await waitForNames(page, ['Gopal Rao Jr', 'Kavya Rao']);

    // What the list shows is what the server holds, after a reload too; the deleted row is kept.
    await page.reload();
    await waitForNames(page, ['Gopal Rao Jr', 'Kavya Rao']);
    const asha = database.prepare(`select deleted_at from leads where name = 'Asha Rao'`).get() as {
      deleted_at: string;
    };
    expect(asha.deleted_at).not.toBeNull();
  });

  it('opens from the navbar search', async () => {
    const page = await context.newPage();
    await page.goto('/dashboard');
    await page.getByRole('searchbox', { name: 'Search leads' }).fill('iyer');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL('**/leads?search=iyer');
    await waitForNames(page, ['Bala Iyer']);
  });
});

describe('on a phone', () => {
  it('shows each lead as a card, and an employee the navbar search results of their own leads', async () => {
    const context = await browser.newContext({ ...phone, baseURL: server.url });
    const page = await context.newPage();
    await signIn(page, admin.email, admin.password, '/dashboard');
    await page.goto('/leads');
    await waitForNames(page, ['Bala Iyer', 'Chitra Nair', 'Dev Mehta', 'Esha Gupta', 'Farah Khan']);
    await screenshot(context, 'leads-list-phone');
    await page.evaluate(() => localStorage.clear());

    await signIn(page, employee.email, employee.password, '/employee');
    // On a phone the search sits in the menu (issue 18: a one-row header).
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('searchbox', { name: 'Search leads' }).fill('a');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('region', { name: 'Results for “a”' });
    await results.getByText(/leads? found/).waitFor();
    // Every third lead is the employee's; Asha (deleted above) is gone.
    expect(await results.locator('strong').allTextContents()).toEqual([
      'Dev Mehta',
      'Gopal Rao Jr',
      'Jay Shah',
    ]);
    await screenshot(context, 'navbar-search-employee-phone');
    await context.close();

    const wide = await browser.newContext({ ...desktop, baseURL: server.url });
    const widePage = await wide.newPage();
    await signIn(widePage, employee.email, employee.password, '/employee');
    await widePage.getByRole('searchbox', { name: 'Search leads' }).fill('shah');
    await widePage.getByRole('button', { name: 'Search', exact: true }).click();
    await widePage.getByRole('region', { name: 'Results for “shah”' }).getByText('1 lead found.').waitFor();
    await screenshot(wide, 'navbar-search-employee-desktop');
    await wide.close();
  });
});
