import fs from 'node:fs';
import * as XLSX from '@e965/xlsx';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desktop, launchBrowser, phone, type RunningServer, startBuiltServer } from './support/harness';

// Issue 19: the import wizard in Chromium at both sizes, with screenshots for a person to look at.

const admin = { email: 'owner@agency.test', password: 'Owner@2026' };
const SHOTS = '/work/shots';
let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
});
afterAll(async () => {
  await server?.stop();
  await browser?.close();
});

/** A portal export: a summary sheet first, a title line, and a column the import does not know. */
function portalExport(first: number): Buffer {
  const rows: unknown[][] = [
    ['Weekly leads export'],
    ['Customer Name', 'Mobile', 'Visit Date', 'Project', 'Where'],
  ];
  for (let i = 0; i < 14; i++) {
    rows.push([
      `Buyer ${i + 1} with a rather long name`,
      `98${String(first + i * 37).padStart(8, '0')}`,
      `${(i % 28) + 1}/02/2026 11:00`,
      ['Green Acres', 'Skyline Towers'][i % 2],
      ['Baner', 'Wakad', 'Aundh'][i % 3],
    ]);
  }
  rows.push(['No Phone Buyer', '', 'Next week', 'Green Acres', 'Baner']);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Total', 15]]), 'Summary');
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Leads');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

async function signIn(page: Page) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/dashboard');
  await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
}

describe.each([
  ['desktop', desktop, 10_000_000],
  ['phone', phone, 20_000_000],
])('the import wizard at %s size', (size, device, first) => {
  it('previews, remaps a column, and imports', async () => {
    const context = await browser.newContext({ ...device, baseURL: server.url });
    try {
      const page = await context.newPage();
      await signIn(page);
      await page.getByText('Import with preview').click();
      await page.getByLabel('File to preview').setInputFiles({
        name: `portal-export-${size}.xlsx`,
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: portalExport(first),
      });
      await page.getByRole('button', { name: 'Preview', exact: true }).click();
      const preview = page.getByRole('region', { name: 'Preview' });
      await preview.waitFor();
      expect(await preview.getByText('Sheet Leads').count()).toBe(1);
      await preview.getByLabel('Read "Where" as').selectOption('location');
      await expect.poll(() => preview.getByRole('cell', { name: 'Wakad' }).count()).toBeGreaterThan(0);

      fs.mkdirSync(SHOTS, { recursive: true });
      await page.locator('.import-wizard').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/import-wizard-${size}.png` });
      // The page itself never scrolls sideways: the wide tables scroll in their own boxes.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        device.viewport.width,
      );

      await page.getByRole('button', { name: 'Import 14 leads' }).click();
      const result = page.getByRole('region', { name: 'Last import' });
      await expect
        .poll(() => result.getByText(`portal-export-${size}.xlsx`, { exact: false }).count())
        .toBe(1);
      expect(await preview.count()).toBe(0);
      await result.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/import-wizard-${size}-done.png` });
    } finally {
      await context.close();
    }
  });
});
