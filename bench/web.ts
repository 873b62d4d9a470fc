import path from 'node:path';
import Database from 'better-sqlite3';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { chromiumPath, desktop, phone } from '../tests/e2e/support/harness';
import {
  ADMIN,
  chromiumFlags,
  EMPLOYEE_PASSWORD,
  leadFields,
  registerEmployee,
  startBenchServer,
} from './web-support';

// `npm run bench:web`: the dashboard with 100,000 leads and the employee board with 2,000, in
// Debian's Chromium (playwright-core, no throttling) against the real built server. Times run from
// the navigation's start (performance.now() in the page) to the table or the first card being
// drawn; counts are of what is in the DOM. The board is timed online and with the network off,
// when its first paint comes from IndexedDB. Figures of one run on this machine.

const DASHBOARD_LEADS = 100_000;
const BOARD_LEADS = 2_000;
const RUNS = 3;

/** Leads straight into the SQLite file: the API would take minutes for 100,000. */
function seed(file: string, employeeEmail: string) {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  const id = (table: string, where: string, value: string) =>
    (db.prepare(`select id from ${table} where ${where} = ?`).get(value) as { id: number }).id;
  const employee = id('users', 'email', employeeEmail);
  const admin = id('users', 'email', ADMIN.email);
  const statuses = (
    db.prepare('select id from client_statuses order by sort_order, id').all() as { id: number }[]
  ).map((r) => r.id);
  const insertLead = db.prepare(
    `insert into leads (name, email, phone, configuration, location, assigned_to_id, assigned_date, created_at, created_by)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertStatus = db.prepare(
    `insert into lead_statuses (lead_id, call_status_id, client_status_id, notes, created_by, created_on, last_updated_by, last_updated_on)
     values (?, 1, ?, 'Called', ?, ?, ?, ?)`,
  );
  const start = Date.parse('2026-01-01T09:00:00Z');
  db.transaction(() => {
    for (let i = 0; i < BOARD_LEADS + DASHBOARD_LEADS; i++) {
      const lead = leadFields(i);
      const mine = i < BOARD_LEADS;
      const at = new Date(start + i * 60_000).toISOString();
      const { lastInsertRowid } = insertLead.run(
        lead.name,
        lead.email,
        lead.phoneNo,
        lead.configuration,
        lead.location,
        mine ? employee : null,
        mine ? at : null,
        at,
        admin,
      );
      // Half of the employee's leads already have a status, spread over the status columns.
      if (mine && i % 2 === 1)
        insertStatus.run(
          lastInsertRowid,
          statuses[Math.floor(i / 2) % statuses.length],
          employeeEmail,
          at,
          employeeEmail,
          at,
        );
    }
  })();
  db.close();
}

async function signIn(page: Page, email: string, password: string, lands: string) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`**${lands}`);
}

/** Milliseconds from the start of the page's navigation until now. */
const sinceNavigation = (page: Page) => page.evaluate(() => Math.round(performance.now()));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (xs: number[]) => `${median(xs)} ms (runs: ${xs.join(', ')})`;

async function dashboard(context: BrowserContext) {
  const page = await context.newPage();
  await signIn(page, ADMIN.email, ADMIN.password, '/dashboard');
  const firstRows: number[] = [];
  const allRows: number[] = [];
  let inDom = 0;
  let inDomScrolled = 0;
  for (let run = 0; run < RUNS; run++) {
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await page.locator('tr.lead-row').first().waitFor();
    firstRows.push(await sinceNavigation(page));
    await page
      .getByText(`${DASHBOARD_LEADS.toLocaleString('en-US')} unassigned leads`, { exact: true })
      .waitFor({
        timeout: 120_000,
      });
    allRows.push(await sinceNavigation(page));
    inDom = await page.locator('tr.lead-row').count();
    await page.locator('.lead-table-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight / 2;
    });
    await page.waitForTimeout(300);
    inDomScrolled = await page.locator('tr.lead-row').count();
  }
  await page.close();
  return { firstRows, allRows, inDom, inDomScrolled };
}

async function board(context: BrowserContext) {
  const page = await context.newPage();
  const t0 = Date.now();
  await signIn(page, 'agent1@example.com', EMPLOYEE_PASSWORD, '/employee');
  await page.getByRole('article').first().waitFor({ timeout: 120_000 });
  const firstVisit = Date.now() - t0;
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const counted = async () => {
    const badges = await page.locator('.board-column .count-badge').allInnerTexts();
    return badges.reduce((sum, text) => sum + Number.parseInt(text.replace(/\D/g, ''), 10), 0);
  };
  await page.waitForFunction((n) => {
    const badges = [...document.querySelectorAll('.board-column .count-badge')];
    return badges.reduce((sum, b) => sum + Number.parseInt(b.textContent!.replace(/\D/g, ''), 10), 0) === n;
  }, BOARD_LEADS);

  const timed = async () => {
    const runs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await page.reload({ waitUntil: 'commit' });
      await page.getByRole('article').first().waitFor();
      runs.push(await sinceNavigation(page));
    }
    return runs;
  };
  const online = await timed();
  const cardsOnline = await page.getByRole('article').count();
  await context.setOffline(true);
  const offline = await timed();
  const cardsOffline = await page.getByRole('article').count();
  const leadsOffline = await counted();
  await context.setOffline(false);
  await page.close();
  return { firstVisit, online, cardsOnline, offline, cardsOffline, leadsOffline };
}

// STATIC_DIR=… times another build of the PWA against the same seeded server.
const server = await startBenchServer({
  LOG_LEVEL: 'error',
  ...(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {}),
});
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: chromiumFlags.filter((f) => !f.startsWith('--headless')),
});
try {
  const employee = await registerEmployee(server, 1);
  const t0 = performance.now();
  seed(path.join(server.dataDir, 'leadnest.sqlite'), employee);
  console.log(
    `\nSeeded ${DASHBOARD_LEADS.toLocaleString('en-US')} unassigned leads and ${BOARD_LEADS.toLocaleString('en-US')} assigned to ${employee} in ${Math.round(performance.now() - t0)} ms`,
  );

  const desk = await browser.newContext({ ...desktop, baseURL: server.url });
  const d = await dashboard(desk);
  await desk.close();
  console.log(
    `Dashboard (desktop 1366×768), ${DASHBOARD_LEADS.toLocaleString('en-US')} unassigned leads, ${RUNS} loads:`,
  );
  console.log(`  first rows drawn        ${ms(d.firstRows)}`);
  console.log(`  all leads loaded        ${ms(d.allRows)}`);
  console.log(`  table rows in the DOM   ${d.inDom} (${d.inDomScrolled} after scrolling to the middle)`);

  const mobile = await browser.newContext({ ...phone, baseURL: server.url });
  const b = await board(mobile);
  await mobile.close();
  console.log(`Employee board (phone 390×844), ${BOARD_LEADS.toLocaleString('en-US')} assigned leads:`);
  console.log(`  first visit, sign-in to first card (network + IndexedDB write)  ${b.firstVisit} ms`);
  console.log(`  reload online, first card drawn     ${ms(b.online)}; ${b.cardsOnline} cards in the DOM`);
  console.log(
    `  reload offline, first card drawn    ${ms(b.offline)}; ${b.cardsOffline} cards in the DOM, columns count ${b.leadsOffline} leads`,
  );
} finally {
  await browser.close();
  await server.stop();
}
