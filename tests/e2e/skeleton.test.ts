import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../contract/messages';
import { validAadhaar } from '../helpers/test-server';
import {
  desktop,
  launchBrowser,
  phone,
  type RunningServer,
  screenshot,
  startBuiltServer,
} from './support/harness';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email-ID').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

async function fillRegistration(page: Page, email: string, password: string, role: string) {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByLabel('Contact Number').fill(
    `9${Math.floor(Math.random() * 1e9)
      .toString()
      .padStart(9, '0')}`,
  );
  await page.getByLabel('Aadhaar Number').fill(validAadhaar());
  await page.getByLabel('Role').selectOption({ label: role });
  await page.getByRole('button', { name: 'Register' }).click();
}

describe('a newcomer on an empty database', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startBuiltServer({ SEED_ADMIN: 'false' });
  });
  afterAll(() => server?.stop());

  it('registers the first admin, signs in and lands on /dashboard, registers an employee who lands on /employee', async () => {
    const context = await browser.newContext({ ...desktop, baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/registration');
    await page.getByRole('heading', { name: 'Create an Account' }).waitFor();
    await screenshot(context, 'registration-desktop');

    await fillRegistration(page, 'owner@agency.test', 'Owner@2026', 'Admin');
    await page.getByText(messages.registration.success).waitFor();
    await page.waitForURL(`${server.url}/`);
    await screenshot(context, 'login-desktop');

    await signIn(page, 'owner@agency.test', 'Owner@2026');
    await page.waitForURL('**/dashboard');
    expect(
      await page.evaluate(() => [localStorage.getItem('employeeEmail'), localStorage.getItem('roleId')]),
    ).toEqual(['owner@agency.test', '1']);
    await page.getByText('LeadNest', { exact: true }).first().waitFor();

    await page.goto('/registration');
    await fillRegistration(page, 'field.agent@agency.test', 'Agent@2026x', 'Employee');
    await page.getByText(messages.registration.success).waitFor();
    await page.waitForURL('**/dashboard');

    await page.evaluate(() => localStorage.clear());
    await page.goto('/');
    await signIn(page, 'field.agent@agency.test', 'Agent@2026x');
    await page.waitForURL('**/employee');
    await page.goto('/dashboard');
    await page.getByText(messages.session.wrongRole).waitFor();
    await context.close();
  });

  it('shows every login validation message and the server answer for a wrong password', async () => {
    const context = await browser.newContext({ ...phone, baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText(messages.login.emailRequired).waitFor();
    await page.getByText(messages.login.passwordRequired).waitFor();
    await screenshot(context, 'login-phone-errors');
    await signIn(page, 'owner@agency.test', 'Wrong@2026');
    await page.getByText(messages.login.invalidCredentials).waitFor();
    await page.goto('/registration');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText(messages.registration.emailRequired).waitFor();
    await page.getByText(messages.registration.roleRequired).waitFor();
    await screenshot(context, 'registration-phone-errors');
    await context.close();
  });

  it('sends an anonymous visitor of a guarded screen to the login screen', async () => {
    const context = await browser.newContext({ ...phone, baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/employee');
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await screenshot(context, 'login-phone');
    await context.close();
  });

  it('loads offline after one visit, from the service worker', async () => {
    const context = await browser.newContext({ ...phone, baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The worker controls the page only after a reload (no clients.claim on first install).
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await context.setOffline(true);
    await page.goto('/registration');
    await page.getByRole('heading', { name: 'Create an Account' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Create an Account' }).waitFor();
    await context.setOffline(false);
    await context.close();
  });
});

describe('the admin printed on first start', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startBuiltServer({ LOG_LEVEL: 'info' });
  });
  afterAll(() => server?.stop());

  it('can sign in with the password shown once on the console', async () => {
    const match = /Password: (\S+)/.exec(server.output());
    expect(match).not.toBeNull();
    const context = await browser.newContext({ ...desktop, baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/');
    await signIn(page, 'admin@leadnest.local', match![1]!);
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await screenshot(context, 'dashboard-first-start-desktop');
    await context.close();
  });
});
