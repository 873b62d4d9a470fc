import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry, Reminder } from '../../contract/lead-status';
import type { Lead } from '../../contract/leads';
import { messages } from '../../contract/messages';
import { syncMessages } from '../../contract/sync';
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

const admin = { email: 'owner@agency.test', password: 'Owner@2026' };
const m = messages.board;
let browser: Browser;
let server: RunningServer;
let adminToken: string;
let employee: { email: string; password: string; token: string };

const call = <T>(path: string, token: string, init?: ApiInit) => apiCall<T>(server, path, token, init);
const login = (email: string, password: string) => apiLogin(server, email, password);

let phoneCounter = 0;
async function addLead(name: string, extra: Record<string, string> = {}): Promise<Lead> {
  phoneCounter += 1;
  return call<Lead>('Admin/leads', adminToken, {
    method: 'POST',
    body: {
      name,
      phoneNo: `98${String(20_000_000 + phoneCounter)}`,
      email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`,
      configuration: '2 BHK',
      location: 'Powai',
      assignedTo: employee.email,
      ...extra,
    },
  });
}

async function giveStatus(lead: Lead, clientStatusId: number) {
  await call('LeadStatus', adminToken, {
    method: 'POST',
    body: { leadId: lead.leadID, notes: 'Imported with a status', callStatusId: 1, clientStatusId },
  });
}

const history = (lead: { leadID: number }) =>
  call<HistoryEntry[]>(`LeadStatus/leads/${lead.leadID}/history`, adminToken);
const allLeads = () => call<Lead[]>('Admin/leads', adminToken);

function column(page: Page, name: string): Locator {
  return page.getByRole('region', { name: new RegExp(`^${name} \\d+ leads?$`) });
}
const cardIn = (page: Page, columnName: string, leadName: string) =>
  column(page, columnName).getByRole('article', { name: leadName });

async function signIn(page: Page) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(employee.email);
  await page.getByLabel('Password', { exact: true }).fill(employee.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/employee');
}

async function moveWithMenu(page: Page, leadName: string, target: string) {
  await page.getByRole('button', { name: `Move ${leadName} to…` }).click();
  await page
    .getByRole('menu', { name: `Move ${leadName} to` })
    .getByRole('menuitem', { name: target })
    .click();
}

async function saveNote(page: Page, leadName: string, values: { client: string; text: string }) {
  await page.getByRole('button', { name: `Add Note for ${leadName}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Call Status').selectOption({ label: 'Connected' });
  await dialog.getByLabel('Client Status').selectOption({ label: values.client });
  await dialog.getByRole('checkbox', { name: 'Andheri' }).check();
  await dialog.getByRole('checkbox', { name: '3 BHK' }).check();
  await dialog.getByLabel('Description').fill(values.text);
  await dialog.getByRole('button', { name: 'Save Note' }).click();
  await dialog.getByRole('region', { name: 'Last Saved' }).getByText(values.text).waitFor();
  return dialog;
}

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  adminToken = await login(admin.email, admin.password);
  const body = buildRegistration({ email: 'field.agent@agency.test', password: 'Agent@2026x' });
  await call('Registration', adminToken, { method: 'POST', body });
  employee = { email: body.email, password: body.password, token: await login(body.email, body.password) };
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the employee board on a phone, offline', () => {
  let context: BrowserContext;
  let page: Page;
  const leads: Record<string, Lead> = {};

  beforeAll(async () => {
    leads.anita = await addLead('Anita Desai');
    leads.vikram = await addLead('Vikram Rao');
    leads.kiran = await addLead('Kiran Shah');
    leads.rohan = await addLead('Rohan Mehta');
    await giveStatus(leads.vikram, 1);
    await giveStatus(leads.kiran, 1);
    context = await browser.newContext({ ...phone, baseURL: server.url });
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  it('opens from the device after one online visit, takes moves, notes, a reminder and a new lead offline, and syncs each exactly once', async () => {
    await signIn(page);
    await cardIn(page, 'New Leads', 'Anita Desai').waitFor();
    await cardIn(page, 'Interested', 'Vikram Rao').waitFor();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The worker controls the page from the next load on.
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await cardIn(page, 'New Leads', 'Anita Desai').waitFor();
    await screenshot(context, 'board-phone');

    await context.setOffline(true);
    await page.reload();
    await cardIn(page, 'Interested', 'Vikram Rao').waitFor();
    await page.getByText('Offline', { exact: true }).waitFor();

    // A move: shown at once and marked as waiting.
    await moveWithMenu(page, 'Vikram Rao', 'Booking');
    const moved = cardIn(page, 'Booking', 'Vikram Rao');
    await moved.waitFor();
    await moved.getByText(syncMessages.pending).waitFor();

    // A drag with the keyboard: lift, one column to the right, drop.
    const handle = page.getByRole('button', { name: 'Drag Kiran Shah' });
    await handle.focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(250);
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(250);
    await page.keyboard.press('Space');
    await cardIn(page, 'Site Visit', 'Kiran Shah').waitFor();

    // A first note on a new lead moves it to the chosen status; then a reminder.
    const dialog = await saveNote(page, 'Anita Desai', {
      client: 'Site Visit',
      text: 'Wants a sea view, call Friday',
    });
    await dialog.getByLabel('Reminder').fill('2031-06-05T10:30');
    await dialog.getByRole('button', { name: 'Set Reminder' }).click();
    await screenshot(context, 'note-modal-phone');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await cardIn(page, 'Site Visit', 'Anita Desai').waitFor();
    await page.getByRole('region', { name: 'Upcoming reminders' }).getByText('Anita Desai').waitFor();

    // A lead added offline, and a note on it before it ever reached the server.
    await page.getByRole('button', { name: '+ Add Lead' }).click();
    const add = page.getByRole('dialog', { name: 'Add New Lead' });
    await add.getByLabel('Name').fill('Walk-in Buyer');
    await add.getByLabel('Phone').fill('9811122233');
    await add.getByRole('button', { name: 'Add Lead' }).click();
    await cardIn(page, 'New Leads', 'Walk-in Buyer').waitFor();
    await saveNote(page, 'Walk-in Buyer', { client: 'Interested', text: 'Met at the site office' });
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await page.getByText(syncMessages.waiting(6)).waitFor();
    await screenshot(context, 'board-phone-offline');

    // Back online: everything goes, once.
    await context.setOffline(false);
    await page.getByText(/changes? waiting to sync/).waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByText(syncMessages.pending).first().waitFor({ state: 'detached' });

    const stored = await allLeads();
    const byName = (name: string) => stored.filter((l) => l.name === name);
    expect(byName('Vikram Rao')[0]?.status).toBe('Booking');
    expect(byName('Kiran Shah')[0]?.status).toBe('Site Visit');
    expect(byName('Anita Desai')[0]?.status).toBe('Site Visit');
    expect(byName('Walk-in Buyer')).toHaveLength(1);
    expect(byName('Walk-in Buyer')[0]).toMatchObject({ status: 'Interested', assignedTo: employee.email });
    expect((await history(leads.anita!)).map((n) => n.notes)).toEqual(['Wants a sea view, call Friday']);
    expect((await history(byName('Walk-in Buyer')[0]!)).map((n) => n.notes)).toEqual([
      'Met at the site office',
    ]);
    // Moves without a note add no history.
    expect(await history(leads.vikram!)).toHaveLength(1);
    const reminders = await call<Reminder[]>('LeadStatus/reminders', employee.token);
    expect(reminders.map((r) => [r.leadName, r.reminderTime])).toEqual([
      ['Anita Desai', await page.evaluate(() => new Date('2031-06-05T10:30').toISOString())],
    ]);
  });

  it('asks for the note at once when a lead without a status is moved, and keeps it in place when closed', async () => {
    await moveWithMenu(page, 'Rohan Mehta', 'Booking');
    const dialog = page.getByRole('dialog', { name: `Add Note — Lead #${leads.rohan!.leadID}` });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Client Status').inputValue()).not.toBe('');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await cardIn(page, 'New Leads', 'Rohan Mehta').waitFor();
    // Nothing was sent, so the server had nothing to refuse.
    expect(await page.getByText(m.requireNote).count()).toBe(0);
    expect(await history(leads.rohan!)).toEqual([]);
  });
});

describe('the employee board on a desktop', () => {
  it('shows every column side by side', async () => {
    const context = await browser.newContext({ ...desktop, baseURL: server.url });
    const page = await context.newPage();
    await signIn(page);
    await cardIn(page, 'Booking', 'Vikram Rao').waitFor();
    await screenshot(context, 'board-desktop');
    await page.getByRole('button', { name: 'Add Note for Vikram Rao' }).click();
    await page
      .getByRole('dialog')
      .getByRole('region', { name: 'Earlier notes' })
      .getByText('Imported with a status')
      .waitFor();
    await screenshot(context, 'note-modal-desktop');
    await context.close();
  });
});
