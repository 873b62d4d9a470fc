import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../contract/lead-status';
import { leadStatusMessages } from '../../contract/lead-status';
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
  startBuiltServer,
} from './support/harness';

// Issue 18 items 3 and 4 in a real Chromium at 390×844: the note asked for before the move,
// and the phone-first board. Positions are asserted as layout facts, never as timings.

const admin = { email: 'owner@agency.test', password: 'Owner@2026' };
const shots = '/work/shots';
let browser: Browser;
let server: RunningServer;
let adminToken: string;
let employee: { email: string; password: string; token: string };

const call = <T>(p: string, token: string, init?: ApiInit) => apiCall<T>(server, p, token, init);

let phoneCounter = 0;
async function addLead(name: string): Promise<Lead> {
  phoneCounter += 1;
  return call<Lead>('Admin/leads', adminToken, {
    method: 'POST',
    body: {
      name,
      phoneNo: `97${String(30_000_000 + phoneCounter)}`,
      email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`,
      configuration: '2 BHK',
      location: 'Powai',
      assignedTo: employee.email,
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

/** The lead's status records as the server's database holds them. */
function statusRecords(leadId: number): { client: string }[] {
  const database = new SQLite(path.join(server.dataDir, 'leadnest.sqlite'), { readonly: true });
  try {
    return database
      .prepare(
        `select c.name as client from lead_statuses s join client_statuses c on c.id = s.client_status_id
         where s.lead_id = ?`,
      )
      .all(leadId) as { client: string }[];
  } finally {
    database.close();
  }
}

async function shot(page: Page, name: string) {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `board-${name}.png`) });
}

const column = (page: Page, name: string): Locator =>
  page.getByRole('region', { name: new RegExp(`^${name} \\d+ leads?$`) });
const cardIn = (page: Page, columnName: string, leadName: string) =>
  column(page, columnName).getByRole('article', { name: leadName });
const tab = (page: Page, name: string) =>
  page
    .getByRole('navigation', { name: 'Columns' })
    .getByRole('button', { name: new RegExp(`^${name} \\d+`) });

async function signIn(page: Page) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(employee.email);
  await page.getByLabel('Password', { exact: true }).fill(employee.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/employee');
  // The first visit installs the service worker, which says so in a prompt over the corner of
  // the page; it is closed first so it covers nothing the test taps or photographs.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const close = page.locator('.reload-prompt').getByRole('button', { name: 'Close' });
  await close.click({ timeout: 5_000 }).catch(() => undefined);
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

/** Waits until the column lies wholly inside the row of columns: that column is the one in view. */
async function waitColumnInView(page: Page, name: string) {
  await page.waitForFunction((title) => {
    const row = document.querySelector('.board-columns')?.getBoundingClientRect();
    const col = document.querySelector(`[data-column="${title}"]`)?.getBoundingClientRect();
    return Boolean(row && col && col.left >= row.left - 1 && col.right <= row.right + 1);
  }, name);
}

/** Fills the Add Note form whose client status is already chosen, saves it and closes it. */
async function saveFirstNote(dialog: Locator, text: string) {
  await dialog.getByLabel('Call Status').selectOption({ label: 'Connected' });
  await dialog.getByRole('checkbox', { name: 'Andheri' }).check();
  await dialog.getByRole('checkbox', { name: '3 BHK' }).check();
  await dialog.getByLabel('Description').fill(text);
  await dialog.getByRole('button', { name: 'Save Note' }).click();
  await dialog.getByRole('region', { name: 'Last Saved' }).getByText(text).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
}

const newLeadNames = [
  'Anita Desai',
  'Rohan Mehta',
  'Sana Sheikh',
  'Tara Nair',
  'Leela Menon',
  'Ishaan Gupta',
  'Farah Khan',
];
const leads: Record<string, Lead> = {};

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startBuiltServer({ ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  adminToken = await apiLogin(server, admin.email, admin.password);
  const body = buildRegistration({ email: 'field.agent@agency.test', password: 'Agent@2026x' });
  await call('Registration', adminToken, { method: 'POST', body });
  employee = {
    email: body.email,
    password: body.password,
    token: await apiLogin(server, body.email, body.password),
  };
  for (const name of [...newLeadNames, 'Vikram Rao', 'Kiran Shah']) leads[name] = await addLead(name);
  await giveStatus(leads['Vikram Rao']!, 1);
  await giveStatus(leads['Kiran Shah']!, 3);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the board on a 390×844 phone', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ ...phone, baseURL: server.url });
    page = await context.newPage();
    await signIn(page);
    await cardIn(page, 'New Leads', 'Farah Khan').waitFor();
    // The one-time offer to turn notifications on sits above the cards until answered
    // (follow-ups.test.ts covers it); what follows is the board of every day after.
    await page
      .getByRole('region', { name: 'Get follow-up reminders on this device' })
      .getByRole('button', { name: 'Not now' })
      .click();
  });
  afterAll(() => context?.close());

  it('shows cards, not chrome: a one-row header, the first name in the top third, actions at the bottom', async () => {
    const viewport = page.viewportSize()!;
    const header = page.getByRole('banner').first();
    expect((await box(header)).height).toBeLessThanOrEqual(60);
    // The greeting and the density live in the closed menu; Add Lead sits in the bottom bar.
    expect(await page.getByText(/^Welcome, /).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Compact' }).isVisible()).toBe(false);
    const firstName = page.getByRole('article').first().getByRole('heading');
    expect((await box(firstName)).y).toBeLessThan(viewport.height / 3);
    for (const name of ['+ Add Lead', 'Add to Interested']) {
      const b = await box(page.getByRole('button', { name }));
      expect(b.y).toBeGreaterThan((viewport.height * 2) / 3);
      expect(b.height).toBeGreaterThanOrEqual(44);
    }
    await shot(page, 'phone-new-leads');
  });

  it('keeps every touch target of the header, tabs and first card at least 44 px, the card actions on one row inside the card', async () => {
    const targets = [
      page.getByRole('button', { name: 'Menu' }),
      tab(page, 'New Leads'),
      tab(page, 'Booking'),
      page.getByRole('article').first().getByRole('button'),
      page.getByRole('article').first().getByRole('link'),
    ];
    for (const group of targets) {
      for (const target of await group.all()) {
        const b = await box(target);
        expect(b.height, (await target.textContent()) ?? '').toBeGreaterThanOrEqual(44);
        expect(b.width, (await target.textContent()) ?? '').toBeGreaterThanOrEqual(44);
      }
    }
    const card = page.getByRole('article').first();
    const cardBox = await box(card);
    const actions = [...(await card.getByRole('link').all()), ...(await card.getByRole('button').all())];
    const rows = new Set<number>();
    for (const action of actions) {
      if ((await action.getAttribute('aria-label'))?.startsWith('Drag ')) continue;
      // The name opens the lead's page (issue 17): a link in the card's title, not an action.
      if ((await action.getAttribute('class'))?.includes('lead-link')) continue;
      const b = await box(action);
      rows.add(Math.round(b.y));
      expect(b.x + b.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    }
    expect(rows.size).toBe(1);
  });

  it('opens the menu with the greeting, links, density, search and Logout; Compact shows at least 3 whole cards', async () => {
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.locator('#nav-menu');
    await menu.getByText(/^Welcome, Field\.agent$/).waitFor();
    const items = await menu.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
    expect(items).toContain('My Board');
    await menu.getByRole('searchbox', { name: 'Search leads' }).waitFor();
    await menu.getByRole('button', { name: 'Logout' }).waitFor();
    await menu.getByRole('button', { name: 'Compact' }).click();
    expect(await menu.getByRole('button', { name: 'Compact' }).getAttribute('aria-pressed')).toBe('true');
    await shot(page, 'phone-menu-open');

    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
    const barTop = (await box(page.getByRole('button', { name: '+ Add Lead' }))).y;
    let whole = 0;
    for (const card of await column(page, 'New Leads').getByRole('article').all()) {
      const b = await box(card);
      if (b.y >= 0 && b.y + b.height <= barTop) whole += 1;
    }
    expect(whole).toBeGreaterThanOrEqual(3);
    await shot(page, 'phone-compact');
  });

  it('brings a column into view and highlights its tab on a tap, and follows a swipe', async () => {
    await tab(page, 'Booking').click();
    await waitColumnInView(page, 'Booking');
    expect(await tab(page, 'Booking').getAttribute('aria-current')).toBe('true');
    expect(await tab(page, 'New Leads').getAttribute('aria-current')).toBeNull();
    expect(await cardIn(page, 'Booking', 'Kiran Shah').isVisible()).toBe(true);
    // Only the column in view is on screen.
    const inView = await box(column(page, 'Booking'));
    expect(inView.x).toBeGreaterThanOrEqual(0);
    expect(inView.x + inView.width).toBeLessThanOrEqual(page.viewportSize()!.width);

    // A swipe from right to left, on the card's details (the drag handle keeps touches for
    // dragging), goes on to the next column, which the tabs then highlight.
    const cdp = await context.newCDPSession(page);
    const details = await box(cardIn(page, 'Booking', 'Kiran Shah').locator('.lead-details'));
    const y = Math.round(details.y + details.height / 2);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 300, y }] });
    for (let step = 1; step <= 10; step++)
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: 300 - step * 25, y }],
      });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await waitColumnInView(page, 'Not Interested');
    await page.waitForFunction(
      () =>
        document
          .querySelector('.column-tab[aria-current="true"]')
          ?.textContent?.startsWith('Not Interested') ?? false,
    );

    await tab(page, 'New Leads').click();
    await waitColumnInView(page, 'New Leads');
    expect(await tab(page, 'New Leads').getAttribute('aria-current')).toBe('true');
  });

  it('asks for the first note at the moment of a move online; the card moves once when it is saved', async () => {
    await page.getByRole('button', { name: 'Move Anita Desai to…' }).click();
    await page
      .getByRole('menu', { name: 'Move Anita Desai to' })
      .getByRole('menuitem', { name: 'Site Visit' })
      .click();
    const dialog = page.getByRole('dialog', { name: `Add Note — Lead #${leads['Anita Desai']!.leadID}` });
    await dialog.getByText(leadStatusMessages.firstNoteMoves('Anita Desai', 'Site Visit')).waitFor();
    expect(await dialog.getByLabel('Client Status').locator('option:checked').textContent()).toBe(
      'Site Visit',
    );
    await shot(page, 'phone-note-before-move');

    // Closed without a note: the card stays where it was.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await cardIn(page, 'New Leads', 'Anita Desai').isVisible()).toBe(true);
    expect(statusRecords(leads['Anita Desai']!.leadID)).toEqual([]);

    await page.getByRole('button', { name: 'Move Anita Desai to…' }).click();
    await page
      .getByRole('menu', { name: 'Move Anita Desai to' })
      .getByRole('menuitem', { name: 'Site Visit' })
      .click();
    await saveFirstNote(dialog, 'Wants a sea view, call Friday');
    await cardIn(page, 'Site Visit', 'Anita Desai').waitFor({ state: 'attached' });
    await page.getByText(/waiting to sync/).waitFor({ state: 'detached' });
    expect(await page.getByText(messages.board.requireNote).count()).toBe(0);
    expect(statusRecords(leads['Anita Desai']!.leadID)).toEqual([{ client: 'Site Visit' }]);
    expect((await history(leads['Anita Desai']!)).map((n) => n.notes)).toEqual([
      'Wants a sea view, call Friday',
    ]);
    expect(await cardIn(page, 'Site Visit', 'Anita Desai').count()).toBe(1);
  });

  it('asks for it offline too; after the network is back one status record, nothing reverted', async () => {
    await context.setOffline(true);
    await page.getByRole('banner').getByText('Offline', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Move Rohan Mehta to…' }).click();
    await page
      .getByRole('menu', { name: 'Move Rohan Mehta to' })
      .getByRole('menuitem', { name: 'Interested', exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: `Add Note — Lead #${leads['Rohan Mehta']!.leadID}` });
    await dialog.getByText(leadStatusMessages.firstNoteMoves('Rohan Mehta', 'Interested')).waitFor();
    await saveFirstNote(dialog, 'Call back after the site visit');

    const moved = cardIn(page, 'Interested', 'Rohan Mehta');
    await moved.getByText(syncMessages.pending).waitFor({ state: 'attached' });
    await page.getByRole('banner').getByText(syncMessages.waiting(1)).waitFor({ state: 'attached' });
    expect(await cardIn(page, 'New Leads', 'Rohan Mehta').count()).toBe(0);
    await shot(page, 'phone-offline-waiting');

    await context.setOffline(false);
    await page
      .getByRole('banner')
      .getByText(/waiting to sync/)
      .waitFor({ state: 'detached', timeout: 30_000 });
    await moved.getByText(syncMessages.pending).waitFor({ state: 'detached' });
    expect(await page.getByText(messages.board.requireNote).count()).toBe(0);
    expect(await cardIn(page, 'Interested', 'Rohan Mehta').count()).toBe(1);
    expect(statusRecords(leads['Rohan Mehta']!.leadID)).toEqual([{ client: 'Interested' }]);
    expect((await history(leads['Rohan Mehta']!)).map((n) => n.notes)).toEqual([
      'Call back after the site visit',
    ]);
  });
});

describe('the board on a 1366×768 desktop', () => {
  it("keeps today's layout: greeting and controls above the columns side by side, no tabs or bottom bar", async () => {
    const context = await browser.newContext({ ...desktop, baseURL: server.url });
    const page = await context.newPage();
    await signIn(page);
    await cardIn(page, 'New Leads', 'Farah Khan').waitFor();
    const main = page.getByRole('main');
    await main.getByText(/^Welcome, Field\.agent$/).waitFor();
    for (const name of ['Regular', 'Compact', '+ Add Lead', 'Add to Interested', 'Logout'])
      expect(await main.getByRole('button', { name }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Columns' }).count()).toBe(0);
    const [first, second] = [await box(column(page, 'New Leads')), await box(column(page, 'Interested'))];
    expect(second.y).toBe(first.y);
    expect(second.x).toBeGreaterThan(first.x + first.width - 1);
    await shot(page, 'desktop-new-leads');

    await main.getByRole('button', { name: 'Compact' }).click();
    await shot(page, 'desktop-compact');

    // A drag with the keyboard: lift, one column to the right (Interested), drop.
    await page.getByRole('button', { name: 'Drag Farah Khan' }).focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('.lead-card[data-dragging="true"]') !== null);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    await page
      .getByRole('dialog', { name: `Add Note — Lead #${leads['Farah Khan']!.leadID}` })
      .getByText(leadStatusMessages.firstNoteMoves('Farah Khan', 'Interested'))
      .waitFor();
    await shot(page, 'desktop-note-before-move');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await cardIn(page, 'New Leads', 'Farah Khan').waitFor();
    expect(await column(page, 'Interested').getByRole('article', { name: 'Farah Khan' }).count()).toBe(0);

    // Now with a note: the card moves once.
    await page.getByRole('button', { name: 'Drag Farah Khan' }).focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('.lead-card[data-dragging="true"]') !== null);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    await saveFirstNote(page.getByRole('dialog'), 'Booked a visit for Saturday');
    await cardIn(page, 'Interested', 'Farah Khan').waitFor();
    await page.getByText(/waiting to sync/).waitFor({ state: 'detached' });
    expect(statusRecords(leads['Farah Khan']!.leadID)).toEqual([{ client: 'Interested' }]);
    expect(await cardIn(page, 'New Leads', 'Farah Khan').count()).toBe(0);
    await context.close();
  });
});
