import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { verhoeffDigit } from '../contract/aadhaar';
import { createParseWorkers, type ParseJob } from '../server/services/lead-import/parse-workers';
import { freePort } from '../tests/helpers/free-port';
import { multipart } from '../tests/server/routes/admin-upload-support';
import { leadRows, toWorkbook } from './lead-sheets';

// `npm run bench:import [-- --rows 1000000]`: spreadsheet import, parse-only against end to end,
// with the server's peak memory and how /api/Admin/stats answers while an import runs.

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'bench', 'out');
const { values: args } = parseArgs({
  options: {
    rows: { type: 'string' },
    runs: { type: 'string', default: '3' },
    employees: { type: 'string', default: '10' },
    // info shows the server's own 'lead import' line: read, insert and rejected-file times.
    'log-level': { type: 'string', default: 'warn' },
  },
});
const sizes = [10_000, 100_000, ...(args.rows ? [Number(args.rows)] : [])];
const runs = Number(args.runs);
const ADMIN = { email: 'bench-admin@example.com', password: 'Bench@12345' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const perSecond = (rows: number, ms: number) => Math.round(rows / (ms / 1000)).toLocaleString('en-US');

function sheetFile(rows: number): string {
  const file = path.join(outDir, `leads-${rows}.xlsx`);
  if (!fs.existsSync(file)) {
    const t0 = performance.now();
    // About 1% invalid phones and 0.5% repeated phones, as real exports have.
    fs.writeFileSync(file, toWorkbook(leadRows(rows, { invalidEvery: 97, duplicateEvery: 199 })));
    console.log(`  generated ${path.relative(root, file)} in ${seconds(performance.now() - t0)} s`);
  }
  return file;
}

function workerMemoryMb(maxRows: number): number {
  // The same rule as server/deps.ts.
  return Math.max(512, Math.ceil(maxRows / 100_000) * 512);
}

/** Reads every chunk the worker sends for `bytes`; answers the data rows it found. */
async function drain(job: ParseJob, bytes: Buffer, maxRows: number): Promise<number> {
  // As the upload route does: the bytes move to the worker, not copied.
  await job.start(bytes, { maxRows, zone: { timeZone: 'Asia/Kolkata' }, handOver: true });
  const chunks = job.chunks();
  for (;;) {
    // The rows themselves are not needed here, only the summary at the end.
    const next = await chunks.next();
    if (next.done) return next.value.totalRows;
  }
}

/**
 * Parse only: the import's own worker reading and validating the file, no HTTP, no database.
 * Measured as the server meets an upload: a spare worker started ahead (as opening the
 * dashboard does) and given the same 2 s, then the file.
 */
async function parseOnly(bytes: Buffer, rows: number): Promise<number> {
  const workers = createParseWorkers({ memoryMb: workerMemoryMb(rows), timeoutMs: 600_000 });
  workers.warm();
  await new Promise((r) => setTimeout(r, 2000));
  const job = workers.start();
  const own = Buffer.from(bytes);
  try {
    const t0 = performance.now();
    const total = await drain(job, own, rows);
    const ms = performance.now() - t0;
    if (total !== rows) throw new Error(`parsed ${total} rows, expected ${rows}`);
    return ms;
  } finally {
    job.close();
    await workers.close();
  }
}

interface Server {
  url: string;
  pid: number;
  token: string;
  stop(): Promise<void>;
}

async function startServer(maxRows: number, fileBytes: number): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-bench-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: 'none',
      LOG_LEVEL: args['log-level'],
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      MAX_UPLOAD_ROWS: String(Math.max(100_000, maxRows)),
      MAX_UPLOAD_MB: String(Math.max(20, Math.ceil((fileBytes / 1024 / 1024) * 1.2))),
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error('the server exited while starting');
    if (i > 300) throw new Error('the server did not start in 60 s');
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const login = await fetch(`${url}/api/Registration/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { token } = (await login.json()) as { token: string };
  return {
    url,
    pid: child.pid!,
    token,
    stop: async () => {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function api(server: Server, pathname: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}/api${pathname}`, {
    ...init,
    headers: {
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
  if (!res.ok) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function addEmployees(server: Server, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const body = `${2 + (i % 8)}${String(1_000_000_000 + i).padStart(10, '0')}`;
    await api(server, '/Registration', {
      method: 'POST',
      body: JSON.stringify({
        email: `employee${i}@example.com`,
        password: 'Bench@12345',
        ConfirmPassword: 'Bench@12345',
        contact: `8${String(100_000_000 + i).padStart(9, '0')}`,
        adharNo: `${body}${verhoeffDigit(body)}`,
        roleId: 3,
      }),
    });
  }
}

/** Peak resident memory of a process so far (Linux: VmHWM). */
function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/**
 * The multipart body is encoded before the clock starts, as a browser streams a chosen file:
 * undici's FormData encoder spends about 10 ms a megabyte in this process, which is the
 * benchmark's cost, not the server's.
 */
async function upload(server: Server, bytes: Buffer, name: string) {
  const { payload, contentType } = multipart(name, bytes);
  const t0 = performance.now();
  const answer = (await api(server, '/Admin/upload-leads?autoAssign=true&utcOffset=330', {
    method: 'POST',
    body: new Uint8Array(payload),
    headers: { 'content-type': contentType },
  })) as {
    totalRows: number;
    inserted: number;
    skipped: number;
    autoAssigned: boolean;
    invalidFile?: string;
  };
  return { ms: performance.now() - t0, answer };
}

/**
 * The import wizard's dry run (issue 19) as the dashboard runs it: POST /api/Admin/imports with
 * the file and `counts=later`, timed like the upload to the preview the admin sees (sheet,
 * columns, samples); then POST /imports/{id}/preview with the mapping shown, to its exact counts. Nothing is written but
 * the kept file.
 */
async function preview(server: Server, bytes: Buffer, name: string) {
  const { payload, contentType } = multipart(name, bytes);
  const t0 = performance.now();
  const first = (await api(server, '/Admin/imports?counts=later', {
    method: 'POST',
    body: new Uint8Array(payload),
    headers: { 'content-type': contentType },
  })) as {
    draftId: number;
    samples: unknown[];
    sheet: { index: number };
    columns: { meaning: string }[];
    dateFormat: string;
    duplicates: string;
  };
  const shown = performance.now() - t0;
  if (first.samples.length !== 10) throw new Error('the preview showed no samples');
  // Asked with the mapping the preview showed, as the wizard asks: the same pass has the counts.
  const mapping = {
    sheet: first.sheet.index,
    columns: first.columns.map((c) => c.meaning),
    dateFormat: first.dateFormat,
    duplicates: first.duplicates,
  };
  const answer = (await api(server, `/Admin/imports/${first.draftId}/preview`, {
    method: 'POST',
    body: JSON.stringify(mapping),
    headers: { 'content-type': 'application/json' },
  })) as { counts: { totalRows: number; inserted: number } };
  return { shownMs: shown, ms: performance.now() - t0, answer };
}

/** /api/Admin/stats at a steady 50 requests/s from 4 connections; `until` ends it early. */
function statsLoad(
  server: Server,
  durationSeconds: number,
  until?: Promise<unknown>,
): Promise<{ p99: number; requests: number; errors: number }> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${server.url}/api/Admin/stats`,
        headers: { authorization: `Bearer ${server.token}` },
        connections: 4,
        overallRate: 50,
        duration: durationSeconds,
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          p99: result.latency.p99,
          requests: result.requests.total,
          errors: result.errors + result.non2xx,
        });
      },
    );
    void until?.then(() => instance.stop());
  });
}

interface Result {
  rows: number;
  fileMb: number;
  parseMs: number;
  e2eMs: number;
  previewMs: number;
  shownMs: number;
  ratio: number;
  peakRssMb: number;
  inserted: number;
  skipped: number;
}

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  console.log(
    `LeadNest import benchmark — Node ${process.version}, ${os.cpus().length} CPU, ${os.cpus()[0]?.model}`,
  );
  console.log(
    `database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}; ${runs} run(s) per size, median reported\n`,
  );
  const results: Result[] = [];
  let concurrency:
    | { idle: number; during: number; after: number; requests: number; errors: number }
    | undefined;

  for (const rows of sizes) {
    console.log(`${rows.toLocaleString('en-US')} rows`);
    const file = sheetFile(rows);
    const bytes = fs.readFileSync(file);
    const parseTimes: number[] = [];
    const e2eTimes: number[] = [];
    const previewTimes: number[] = [];
    const shownTimes: number[] = [];
    let peak = 0;
    let last: Awaited<ReturnType<typeof upload>>['answer'] | undefined;
    for (let run = 0; run < runs; run++) {
      parseTimes.push(await parseOnly(bytes, rows));
      const server = await startServer(rows, bytes.length);
      try {
        await addEmployees(server, Number(args.employees));
        // Opening the dashboard warms a parse worker; give it time to start, as a user choosing a file would.
        await api(server, '/Admin/stats');
        await new Promise((r) => setTimeout(r, 2000));
        const dry = await preview(server, bytes, path.basename(file));
        if (dry.answer.counts.totalRows !== rows) throw new Error('the preview counted other rows');
        previewTimes.push(dry.ms);
        shownTimes.push(dry.shownMs);
        await api(server, '/Admin/stats');
        await new Promise((r) => setTimeout(r, 2000));
        const { ms, answer } = await upload(server, bytes, path.basename(file));
        if (answer.inserted !== dry.answer.counts.inserted)
          throw new Error('the preview and the import disagree');
        e2eTimes.push(ms);
        peak = Math.max(peak, peakRssMb(server.pid));
        last = answer;
      } finally {
        await server.stop();
      }
      console.log(
        `  run ${run + 1}: parse-only ${seconds(parseTimes.at(-1)!)} s, preview shown ${seconds(shownTimes.at(-1)!)} s, exact counts ${seconds(previewTimes.at(-1)!)} s, end to end ${seconds(e2eTimes.at(-1)!)} s`,
      );
    }
    const parseMs = median(parseTimes);
    const e2eMs = median(e2eTimes);
    results.push({
      rows,
      fileMb: Math.round((bytes.length / 1024 / 1024) * 10) / 10,
      parseMs,
      e2eMs,
      previewMs: median(previewTimes),
      shownMs: median(shownTimes),
      ratio: parseMs / e2eMs,
      peakRssMb: peak,
      inserted: last!.inserted,
      skipped: last!.skipped,
    });

    if (rows === 100_000) {
      const server = await startServer(rows, bytes.length);
      try {
        await addEmployees(server, Number(args.employees));
        await api(server, '/Admin/stats');
        await new Promise((r) => setTimeout(r, 2000));
        const idle = await statsLoad(server, 5);
        const importing = upload(server, bytes, path.basename(file));
        const during = await statsLoad(server, 600, importing);
        await importing;
        const after = await statsLoad(server, 5);
        concurrency = {
          idle: idle.p99,
          during: during.p99,
          after: after.p99,
          requests: during.requests,
          errors: during.errors,
        };
      } finally {
        await server.stop();
      }
    }
  }

  const table = [
    '| rows | file | parse-only | preview shown | exact counts | end to end | shown ÷ e2e | counts ÷ e2e | e2e ÷ parse speed | parse rows/s | e2e rows/s | server peak RSS | inserted / skipped |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.rows.toLocaleString('en-US')} | ${r.fileMb} MB | ${seconds(r.parseMs)} s | ${seconds(r.shownMs)} s | ${seconds(r.previewMs)} s | ${seconds(r.e2eMs)} s | ${(r.shownMs / r.e2eMs).toFixed(2)} | ${(r.previewMs / r.e2eMs).toFixed(2)} | ${r.ratio.toFixed(2)} | ${perSecond(r.rows, r.parseMs)} | ${perSecond(r.rows, r.e2eMs)} | ${r.peakRssMb} MB | ${r.inserted.toLocaleString('en-US')} / ${r.skipped.toLocaleString('en-US')} |`,
    ),
  ];
  console.log(`\n${table.join('\n')}`);
  if (concurrency) {
    console.log(
      `\nGET /api/Admin/stats at 50 req/s: p99 ${concurrency.idle} ms idle (empty database), ` +
        `${concurrency.during} ms during the 100,000-row import (${concurrency.requests} requests, ${concurrency.errors} errors), ` +
        `${concurrency.after} ms idle after it (100,000 leads).`,
    );
  }
  fs.writeFileSync(
    path.join(outDir, 'import-results.json'),
    JSON.stringify({ results, concurrency }, null, 2),
  );
}

await main();
