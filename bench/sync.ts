import path from 'node:path';
import Database from 'better-sqlite3';
import { type BrowserContext, type CDPSession, chromium, type Page } from 'playwright-core';
import { chromiumPath, phone } from '../tests/e2e/support/harness';
import {
  ADMIN,
  type BenchServer,
  chromiumFlags,
  EMPLOYEE_PASSWORD,
  leadFields,
  registerEmployee,
  startBenchServer,
} from './web-support';

// `npm run bench:sync` (issue 18): the field app on a poor mobile link, emulated through the
// DevTools protocol (400 ms round trip, 400 kbit/s each way), today's code path against the new
// one in one run:
// 1. 50 offline writes (moves, notes, reminders, 3 new leads) flushed: one request per write
//    (the outbox's path for a server without POST /api/sync, forced by answering that call 404)
//    against one batch.
// 2. The refresh of an employee with 2,000 cached leads of which 5 changed: the full reload
//    (GET /api/sync/changes answered 404, so the board falls back to GET /api/Admin/leads and the
//    option lists) against the delta.
// 3. The cold start of the installed app offline: a new page (the app closed and opened again)
//    with the network off and the CPU slowed 4× (DevTools), an employee with 500 leads on the
//    device; from the navigation's start to the first card drawn.
// `npm run build` first: the benchmark drives the built app.

const CACHED_LEADS = 2_000;
const WRITES = 50;
const NEW_LEADS = 3;
const CHANGED = 5;
const COLD_LEADS = 500;
const COLD_RUNS = 5;
const link = { latency: 400, downloadThroughput: (400 * 1000) / 8, uploadThroughput: (400 * 1000) / 8 };

/** The employee's leads straight into the SQLite file; every other one already has a status. */
function seed(file: string, employeeEmail: string, count = CACHED_LEADS, first = 0) {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  const id = (table: string, where: string, value: string) =>
    (db.prepare(`select id from ${table} where ${where} = ?`).get(value) as { id: number }).id;
  const employee = id('users', 'email', employeeEmail);
  const admin = id('users', 'email', ADMIN.email);
  const statuses = (db.prepare('select id from client_statuses order by id').all() as { id: number }[]).map(
    (r) => r.id,
  );
  const insertLead = db.prepare(
    `insert into leads (name, email, phone, configuration, location, assigned_to_id, assigned_date, created_at, created_by)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertStatus = db.prepare(
    `insert into lead_statuses (lead_id, call_status_id, client_status_id, notes, created_by, created_on, last_updated_by, last_updated_on)
     values (?, 1, ?, 'Called', ?, ?, ?, ?)`,
  );
  const withStatus: number[] = [];
  const without: number[] = [];
  db.transaction(() => {
    for (let i = first; i < first + count; i++) {
      const lead = leadFields(i);
      const at = new Date(Date.parse('2026-01-01T09:00:00Z') + i * 60_000).toISOString();
      const leadId = Number(
        insertLead.run(
          lead.name,
          lead.email,
          lead.phoneNo,
          lead.configuration,
          lead.location,
          employee,
          at,
          at,
          admin,
        ).lastInsertRowid,
      );
      if (i % 2 === 1) {
        insertStatus.run(leadId, statuses[i % statuses.length], employeeEmail, at, employeeEmail, at);
        withStatus.push(leadId);
      } else without.push(leadId);
    }
  })();
  db.close();
  return { withStatus, without };
}

interface OutboxRowInit {
  id: string;
  kind: 'status' | 'note' | 'reminder' | 'lead';
  leadId: number;
  payload: Record<string, unknown>;
  statusName: string | null;
  leadName: string;
  createdAt: number;
  attempts: number;
  state: 'pending';
  nextAttemptAt: number;
}

/** A morning's offline work as outbox rows, in the order the employee made them. */
function offlineWork(
  email: string,
  leads: { withStatus: number[]; without: number[] },
  ids: { callStatus: number; clientStatuses: { id: number; name: string }[] },
  run: number,
): OutboxRowInit[] {
  const rows: OutboxRowInit[] = [];
  const at = Date.now();
  const row = (
    kind: OutboxRowInit['kind'],
    leadId: number,
    payload: Record<string, unknown>,
    statusName = null as string | null,
  ) =>
    rows.push({
      id: crypto.randomUUID(),
      kind,
      leadId,
      payload,
      statusName,
      leadName: `Lead ${leadId}`,
      createdAt: at + rows.length,
      attempts: 0,
      state: 'pending',
      nextAttemptAt: 0,
    });
  const status = (i: number) => ids.clientStatuses[i % ids.clientStatuses.length]!;
  for (let n = 0; n < NEW_LEADS; n++) {
    row('lead', -(n + 1), {
      name: `Walk-in ${run}-${n}`,
      phoneNo: `6${String(run * 100 + n).padStart(9, '0')}`,
      email: '',
      assignedTo: email,
      assignedDate: new Date().toISOString(),
    });
  }
  const offset = run * 20;
  for (let i = 0; rows.length < WRITES; i++) {
    const kind = i % 5;
    if (kind < 2) {
      const leadId = leads.withStatus[offset + i]!;
      row('status', leadId, { leadId, clientStatusId: status(i).id, updatedBy: email }, status(i).name);
    } else if (kind < 4) {
      const leadId = leads.without[offset + i]!;
      row(
        'note',
        leadId,
        {
          leadId,
          notes: 'Called from the site; wants a second visit on Saturday with the family.',
          callDateTime: new Date().toISOString(),
          callStatusId: ids.callStatus,
          clientStatusId: status(i).id,
          clientPriorityId: 1,
          tokenId: 1,
          createdBy: email,
        },
        status(i).name,
      );
    } else {
      const leadId = leads.withStatus[offset + i]!;
      row('reminder', leadId, {
        leadId,
        employeeEmail: email,
        reminderTime: new Date(Date.now() + 86_400_000).toISOString(),
        note: 'Call back after the visit',
        isSent: false,
        createdBy: email,
      });
    }
  }
  return rows;
}

/** Writes rows into the app's outbox in IndexedDB, as the board does while offline. */
async function putInOutbox(page: Page, email: string, rows: OutboxRowInit[]) {
  await page.evaluate(
    async ({ name, rows }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('outbox', 'readwrite');
        for (const row of rows) tx.objectStore('outbox').put(row);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { name: `leadnest-${email}`, rows },
  );
}

async function idb<T>(page: Page, email: string, store: string, key?: number): Promise<T> {
  return page.evaluate(
    async ({ name, store, key }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const result = await new Promise<unknown>((resolve, reject) => {
        const request =
          key === undefined
            ? db.transaction(store).objectStore(store).count()
            : db.transaction(store).objectStore(store).get(key);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return result as never;
    },
    { name: `leadnest-${email}`, store, key },
  );
}

async function until(check: () => Promise<boolean>, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Counts requests and bytes on the page's network, from the DevTools protocol's own figures. */
function meter(cdp: CDPSession) {
  const open = new Set<string>();
  let requests = 0;
  let received = 0;
  let sent = 0;
  let paths: string[] = [];
  let batchMs: number[] = [];
  const started = new Map<string, { at: number; what: string }>();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!e.request.url.includes('/api/')) return;
    open.add(e.requestId);
    started.set(e.requestId, {
      at: performance.now(),
      what: `${e.request.method} ${new URL(e.request.url).pathname}`,
    });
    requests += 1;
    paths.push(`${e.request.method} ${new URL(e.request.url).pathname}`);
    sent += 400;
    if (e.request.postData !== undefined) sent += e.request.postData.length;
    else if (e.request.hasPostData) {
      // Larger bodies are not in the event; ask for them.
      cdp
        .send('Network.getRequestPostData', { requestId: e.requestId })
        .then((body) => {
          sent += body.postData.length;
        })
        .catch(() => undefined);
    }
  });
  const done = (e: { requestId: string }) => open.delete(e.requestId);
  cdp.on('Network.loadingFinished', (e) => {
    if (open.has(e.requestId)) received += e.encodedDataLength;
    const s = started.get(e.requestId);
    if (s?.what === 'POST /api/sync') batchMs.push(performance.now() - s.at);
    if (s && process.env.SYNC_BENCH_TRACE)
      console.log(`    ${s.what} ${Math.round(performance.now() - s.at)} ms, ${e.encodedDataLength} B`);
    done(e);
  });
  cdp.on('Network.loadingFailed', done);
  return {
    reset() {
      requests = 0;
      received = 0;
      sent = 0;
      paths = [];
      batchMs = [];
    },
    idle: () => open.size === 0,
    read: () => ({ requests, received, sent, paths: [...paths], batchMs: [...batchMs] }),
  };
}

async function signIn(page: Page, email: string) {
  await page.goto('/');
  await page.getByLabel('Email-ID').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(EMPLOYEE_PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/employee');
  await page.getByRole('article').first().waitFor({ timeout: 120_000 });
}

type Path = 'today' | 'new';

async function measure(
  server: BenchServer,
  context: BrowserContext,
  way: Path,
  email: string,
  leads: { withStatus: number[]; without: number[] },
  ids: Parameters<typeof offlineWork>[2],
  run: number,
) {
  const page = await context.newPage();
  if (way === 'today') {
    // Today's code: the outbox's one-request-per-row path and the full reload, which the app
    // takes against a server without the batch and delta calls.
    const notFound = {
      status: 404,
      contentType: 'application/problem+json',
      body: '{"status":404,"message":"Not found."}',
    };
    await page.route('**/api/sync', (route) => route.fulfill(notFound));
    await page.route('**/api/sync/changes**', (route) => route.fulfill(notFound));
  }
  await signIn(page, email);
  await until(async () => (await idb<number>(page, email, 'leads')) >= CACHED_LEADS);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const net = meter(cdp);
  await until(async () => net.idle());

  // 1. The flush.
  await cdp.send('Network.emulateNetworkConditions', {
    offline: true,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const rows = offlineWork(email, leads, ids, run);
  await putInOutbox(page, email, rows);
  net.reset();
  const t0 = performance.now();
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...link });
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await until(async () => (await idb<number>(page, email, 'outbox')) === 0);
  const flushMs = performance.now() - t0;
  const flush = net.read();
  await until(async () => net.idle());

  // 2. The refresh with 5 leads changed on the server.
  const changed = leads.without.slice(-CHANGED - run * CHANGED, leads.without.length - run * CHANGED);
  for (const id of changed)
    await server.api(`Leads/${id}`, { method: 'PUT', body: { name: `Changed ${run}-${id}` } });
  net.reset();
  const t1 = performance.now();
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await until(async () => {
    for (const id of changed) {
      const lead = await idb<{ name: string } | undefined>(page, email, 'leads', id);
      if (lead?.name !== `Changed ${run}-${id}`) return false;
    }
    return true;
  });
  const refreshMs = performance.now() - t1;
  await until(async () => net.idle());
  const refresh = net.read();
  await page.close();
  return { flushMs, flush, refreshMs, refresh };
}

/** Opens the app offline at 4× CPU slowdown, as a phone reopening it in a dead zone would. */
async function coldStart(context: BrowserContext, email: string) {
  const page = await context.newPage();
  await signIn(page, email);
  await until(async () => (await idb<number>(page, email, 'leads')) >= COLD_LEADS);
  // Installed: the service worker controls the page and holds the app's files.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await until(() => page.evaluate(() => navigator.serviceWorker.controller !== null));
  await page.close();
  await context.setOffline(true);
  const runs: number[] = [];
  let cards = 0;
  for (let run = 0; run < COLD_RUNS; run++) {
    const cold = await context.newPage();
    const cdp = await context.newCDPSession(cold);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cold.goto('/employee', { waitUntil: 'commit' });
    await cold.getByRole('article').first().waitFor({ timeout: 60_000 });
    runs.push(await cold.evaluate(() => Math.round(performance.now())));
    cards = await cold.getByRole('article').count();
    await cold.close();
  }
  await context.setOffline(false);
  return { runs, cards };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const server = await startBenchServer({ LOG_LEVEL: 'error' });
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: chromiumFlags.filter((f) => !f.startsWith('--headless')),
});
try {
  const email = await registerEmployee(server, 1);
  const leads = seed(path.join(server.dataDir, 'leadnest.sqlite'), email);
  const calls = await server.api<{ callStatusId: number; callStat: string }[]>('LeadStatus/call-statuses');
  const clients = await server.api<{ clientStatusId: number; clientStat: string }[]>(
    'LeadStatus/client-statuses',
  );
  const ids = {
    callStatus: calls[0]!.callStatusId,
    clientStatuses: clients.map((c) => ({ id: c.clientStatusId, name: c.clientStat })),
  };
  console.log(
    `\nLeadNest sync benchmark: Chromium, phone 390×844, link ${link.latency} ms round trip, 400 kbit/s each way (DevTools emulation)`,
  );
  console.log(
    `${CACHED_LEADS.toLocaleString('en-US')} leads cached on the device; ${WRITES} offline writes (${NEW_LEADS} new leads)\n`,
  );
  const results: Record<Path, Awaited<ReturnType<typeof measure>>> = {} as never;
  let run = 0;
  for (const way of ['today', 'new'] as const) {
    const context = await browser.newContext({ ...phone, baseURL: server.url, serviceWorkers: 'block' });
    results[way] = await measure(server, context, way, email, leads, ids, run++);
    await context.close();
  }
  const { today, new: now } = results;
  console.log('| | today (one request per write, full reload) | batched sync, delta refresh | ratio |');
  console.log('| --- | ---: | ---: | ---: |');
  console.log(
    `| flush of ${WRITES} offline writes | ${(today.flushMs / 1000).toFixed(2)} s, ${today.flush.requests} requests | ${(now.flushMs / 1000).toFixed(2)} s, ${now.flush.requests} requests | ${(today.flushMs / now.flushMs).toFixed(1)}× faster |`,
  );
  console.log(
    `| its bytes (received / sent) | ${kb(today.flush.received)} / ${kb(today.flush.sent)} | ${kb(now.flush.received)} / ${kb(now.flush.sent)} | |`,
  );
  console.log(
    `| refresh, ${CHANGED} of ${CACHED_LEADS.toLocaleString('en-US')} leads changed | ${(today.refreshMs / 1000).toFixed(2)} s, ${today.refresh.requests} requests | ${(now.refreshMs / 1000).toFixed(2)} s, ${now.refresh.requests} requests | ${(today.refreshMs / now.refreshMs).toFixed(1)}× faster |`,
  );
  console.log(
    `| its bytes (received / sent) | ${kb(today.refresh.received)} / ${kb(today.refresh.sent)} | ${kb(now.refresh.received)} / ${kb(now.refresh.sent)} | ${(today.refresh.received / now.refresh.received).toFixed(0)}× fewer received |`,
  );
  console.log(
    `\nThe batch request itself (upload, the server running ${WRITES} ops, answer): ${now.flush.batchMs.map((t) => `${Math.round(t)} ms`).join(', ')}`,
  );
  console.log('\nRequests during the flush and the refresh:');
  for (const way of ['today', 'new'] as const) {
    const count = (paths: string[]) => {
      const seen = new Map<string, number>();
      for (const p of paths) seen.set(p, (seen.get(p) ?? 0) + 1);
      return [...seen].map(([p, n]) => `${p} ×${n}`).join(', ');
    };
    console.log(`  ${way}: flush ${count(results[way].flush.paths)}`);
    console.log(`  ${way}: refresh ${count(results[way].refresh.paths)}`);
  }
  console.log(
    '\nSent bytes are request bodies plus ~400 bytes of headers each (estimated); received are as on the wire (compressed, with headers).',
  );

  const coldEmail = await registerEmployee(server, 2);
  seed(path.join(server.dataDir, 'leadnest.sqlite'), coldEmail, COLD_LEADS, CACHED_LEADS);
  const coldContext = await browser.newContext({ ...phone, baseURL: server.url });
  const cold = await coldStart(coldContext, coldEmail);
  await coldContext.close();
  const sorted = [...cold.runs].sort((a, b) => a - b);
  console.log(
    `\nCold start offline, ${COLD_LEADS} leads on the device, CPU 4× slower: first card drawn ${sorted[Math.floor(sorted.length / 2)]} ms (median; runs ${cold.runs.join(', ')} ms; goal under 1,000 ms); ${cold.cards} cards in the DOM`,
  );
} finally {
  await browser.close();
  await server.stop();
}
