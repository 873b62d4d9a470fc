// `npx tsx scripts/readme-screenshots.ts` after `npm run build`: the README's two pictures, taken
// in Debian's Chromium against the built app on a fresh SQLite data dir: an employee's board on
// a phone (390×844) and the admin dashboard on a desktop (1366×768), into docs/img/.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { leadRows, toWorkbook } from '../bench/lead-sheets';
import { Role } from '../contract/roles';
import {
  apiCall,
  apiLogin,
  desktop,
  launchBrowser,
  phone,
  startBuiltServer,
} from '../tests/e2e/support/harness';
import { buildRegistration } from '../tests/helpers/test-server';

const admin = { email: 'owner@agency.example', password: 'Owner@2026' };
const out = path.resolve(import.meta.dirname, '../docs/img');
const server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
const browser = await launchBrowser();
try {
  const adminToken = await apiLogin(server, admin.email, admin.password);
  const employees = ['priya', 'arjun', 'meera'].map((name) =>
    buildRegistration({ roleId: Role.Employee, email: `${name}@agency.example` }),
  );
  for (const e of employees) await apiCall(server, 'Registration', adminToken, { method: 'POST', body: e });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(toWorkbook(leadRows(60)))]), 'leads.xlsx');
  const upload = await fetch(`${server.url}/api/Admin/upload-leads?autoAssign=true`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}` },
    body: form,
  });
  if (!upload.ok) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
  fs.mkdirSync(out, { recursive: true });

  const shoot = async (
    options: typeof phone | typeof desktop,
    who: { email: string; password: string },
    ready: (page: Page) => Promise<void>,
    file: string,
  ) => {
    const context = await browser.newContext({ ...options, baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Email-ID').fill(who.email);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await ready(page);
    // The "Login successful" toast gone, charts drawn.
    await page.waitForTimeout(4500);
    await page.screenshot({ path: path.join(out, file) });
    await context.close();
  };
  await shoot(
    { ...phone, deviceScaleFactor: 1 },
    employees[0]!,
    async (page) => {
      await page.waitForURL('**/employee');
      await page.getByRole('article').first().waitFor();
    },
    'board-phone.png',
  );
  await shoot(
    desktop,
    admin,
    async (page) => {
      await page.waitForURL('**/dashboard');
      await page.locator('.chart-box svg').first().waitFor();
    },
    'dashboard-desktop.png',
  );
  console.log(`written: ${out}/board-phone.png, ${out}/dashboard-desktop.png`);
} finally {
  await browser.close();
  await server.stop();
}
