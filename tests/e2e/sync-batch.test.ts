import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../contract/lead-status';
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

// Issue 18 in a real Chromium: offline notes go out in one POST /api/sync, and a lead reassigned
// while the phone was offline leaves the board, its waiting note kept under "Needs attention".

const admin = { email: 'owner@agency.test', password: 'Owner@2026' };
let browser: Browser;
let server: RunningServer;
let adminToken: string;
let employee: { email: string; password: string };
let colleagueId: number;

const call = <T>(p: string, token: string, init?: ApiInit) => apiCall<T>(server, p, token, init);

async function register(email: string) {
  const body = buildRegistration({ email, password: 'Agent@2026x' });
  const answer = await call<{ registrationId: number }>('Registration', adminToken, { method: 'POST', body });
  return { email, password: body.password, id: answer.registrationId };
}

async function addLead(name: string, n: number): Promise<Lead> {
  return call<Lead>('Admin/leads', adminToken, {
    method: 'POST',
    body: { name, phoneNo: `97${String(30_000_000 + n)}`, email: '', assignedTo: employee.email },
  });
}

async function saveNote(page: Page, leadName: string, text: string) {
  await page.getByRole('button', { name: `Add Note for ${leadName}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Call Status').selectOption({ label: 'Connected' });
  await dialog.getByLabel('Client Status').selectOption({ label: 'Interested' });
  await dialog.getByRole('checkbox', { name: 'Andheri' }).check();
  await dialog.getByRole('checkbox', { name: '3 BHK' }).check();
  await dialog.getByLabel('Description').fill(text);
  await dialog.getByRole('button', { name: 'Save Note' }).click();
  await dialog.getByRole('region', { name: 'Last Saved' }).getByText(text).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
}

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  adminToken = await apiLogin(server, admin.email, admin.password);
  employee = await register('field.agent@agency.test');
  colleagueId = (await register('colleague@agency.test')).id;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('batched sync and the delta refresh on a phone', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ ...phone, baseURL: server.url });
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  it('sends offline notes in one request and parks the note of a lead reassigned meanwhile', async () => {
    const kept = await addLead('Dev Patel', 1);
    const other = await addLead('Sana Nair', 2);
    const moved = await addLead('Meera Iyer', 3);
    await page.goto('/');
    await page.getByLabel('Email-ID').fill(employee.email);
    await page.getByLabel('Password', { exact: true }).fill(employee.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/employee');
    await page.getByRole('article', { name: 'Meera Iyer' }).waitFor();

    await context.setOffline(true);
    await saveNote(page, 'Dev Patel', 'Wants a corner flat');
    await saveNote(page, 'Sana Nair', 'Visiting on Sunday');
    await saveNote(page, 'Meera Iyer', 'Asked for the brochure again');
    // Meanwhile the office gives Meera to a colleague.
    const db = new Database(path.join(server.dataDir, 'leadnest.sqlite'));
    db.prepare('update leads set assigned_to_id = ? where id = ?').run(colleagueId, moved.leadID);
    db.close();

    // Writes fail until the refresh has seen the reassignment, so the order is fixed.
    await page.route('**/api/sync', (route) => route.abort('internetdisconnected'));
    await context.setOffline(false);

    const attention = page.getByRole('region', { name: /Needs attention/ });
    await attention.getByText(messages.board.leadReassigned).waitFor();
    await expect.poll(() => page.getByRole('article', { name: 'Meera Iyer' }).count()).toBe(0);
    expect(await attention.getByText('“Asked for the brochure again”').isVisible()).toBe(true);

    const batches: { ops: { body: { notes: string } }[] }[] = [];
    await page.unroute('**/api/sync');
    await page.route('**/api/sync', async (route) => {
      batches.push(route.request().postDataJSON());
      await route.continue();
    });
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect
      .poll(
        async () =>
          (await call<HistoryEntry[]>(`LeadStatus/leads/${other.leadID}/history`, adminToken)).length,
      )
      .toBe(1);
    expect(
      (await call<HistoryEntry[]>(`LeadStatus/leads/${kept.leadID}/history`, adminToken)).map((h) => h.notes),
    ).toEqual(['Wants a corner flat']);
    expect((await call<HistoryEntry[]>(`LeadStatus/leads/${moved.leadID}/history`, adminToken)).length).toBe(
      0,
    );
    // Both waiting notes went in one batch; the parked one was not sent.
    expect(batches).toHaveLength(1);
    expect(batches[0]!.ops.map((op) => op.body.notes)).toEqual(['Wants a corner flat', 'Visiting on Sunday']);

    await attention.scrollIntoViewIfNeeded();
    await screenshot(context, 'sync-needs-attention-phone');
    await page.setViewportSize(desktop.viewport);
    await attention.scrollIntoViewIfNeeded();
    await screenshot(context, 'sync-needs-attention-desktop');
  });
});
