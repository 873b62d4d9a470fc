import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../contract/messages';
import { passwordMessages } from '../../contract/password';
import { resetLinkIn } from '../helpers/mail';
import {
  desktop,
  launchBrowser,
  phone,
  type RunningServer,
  screenshot,
  startBuiltServer,
} from './support/harness';

const admin = { email: 'owner@agency.test', password: 'Owner@2026' };
const newPassword = 'Fresh@Start9';
let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  browser = await launchBrowser();
  // No SMTP_URL: the reset mail is written as an .eml file under the data dir (DESIGN.md §6).
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
});
afterAll(async () => {
  await server?.stop();
  await browser?.close();
});

const mailDir = () => path.join(server.dataDir, 'mail');

/** The newest .eml the server wrote, once one more than `before` exists. */
async function nextMail(before: number): Promise<string> {
  await expect
    .poll(() => (fs.existsSync(mailDir()) ? fs.readdirSync(mailDir()).length : 0), { timeout: 10_000 })
    .toBeGreaterThan(before);
  const newest = fs.readdirSync(mailDir()).sort().at(-1)!;
  return fs.readFileSync(path.join(mailDir(), newest), 'utf8');
}

const mailCount = () => (fs.existsSync(mailDir()) ? fs.readdirSync(mailDir()).length : 0);

async function signInOnLeadForm(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

describe('forgot → mail → reset → sign in', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await browser.newContext({ ...desktop, baseURL: server.url });
  });
  afterAll(() => context.close());

  it('resets the password from the mailed link and signs in with the new one on /lead/:id', async () => {
    const page = await context.newPage();
    await page.goto('/lead/17');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
    await signInOnLeadForm(page, admin.email, 'Wrong@2026');
    await page.getByText(messages.login.leadFormInvalid).waitFor();
    await screenshot(context, 'lead-login-desktop');

    await page.getByRole('link', { name: 'Forgot Password' }).click();
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    const before = mailCount();
    await page.getByLabel('Email').fill(admin.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText(messages.password.forgotAnswer).waitFor();
    await screenshot(context, 'forgot-password-desktop');

    const link = resetLinkIn(await nextMail(before));
    // PUBLIC_URL defaults to http://localhost:<PORT>; the browser opens the same path on the test origin.
    expect(link.origin).toBe(`http://localhost:${new URL(server.url).port}`);
    await page.goto(`${link.pathname}${link.search}${link.hash}`);
    await page.getByRole('heading', { name: 'Choose a New Password' }).waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('weakpass');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText(messages.registration.passwordRule).waitFor();
    await page.getByText(messages.registration.confirmRequired).waitFor();
    await screenshot(context, 'reset-password-errors-desktop');

    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm Password').fill(newPassword);
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText(passwordMessages.resetDone).waitFor();
    await screenshot(context, 'reset-password-done-desktop');

    // The link is spent. Opened afresh, as from the mail: the same address with only its
    // fragment would not load the page again.
    await page.goto('about:blank');
    await page.goto(`${link.pathname}${link.search}${link.hash}`);
    await page.getByLabel('New Password', { exact: true }).fill('Other@Pass9');
    await page.getByLabel('Confirm Password').fill('Other@Pass9');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText(passwordMessages.tokenUsed).waitFor();

    await page.goto('/lead/17');
    await signInOnLeadForm(page, admin.email, admin.password);
    await page.getByText(messages.login.leadFormInvalid).waitFor();
    await signInOnLeadForm(page, admin.email, newPassword);
    await page.waitForURL('**/dashboard');
    expect(await page.evaluate(() => localStorage.getItem('roleId'))).toBe('1');
  });
});

describe('on a phone', () => {
  it('shows the lead sign-in, forgot and reset screens', async () => {
    const context = await browser.newContext({ ...phone, baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/lead/17');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText(messages.registration.emailRequired).waitFor();
    await screenshot(context, 'lead-login-phone');

    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill('nobody@agency.test');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText(messages.password.forgotAnswer).waitFor();
    await screenshot(context, 'forgot-password-phone');

    await page.goto('/reset-password?token=not-a-real-token-at-all');
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm Password').fill(newPassword);
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText(passwordMessages.tokenUnknown).waitFor();
    await screenshot(context, 'reset-password-phone');
    await context.close();
  });
});
