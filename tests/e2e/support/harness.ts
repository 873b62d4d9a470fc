import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { freePort } from '../../helpers/free-port';

const root = path.resolve(import.meta.dirname, '../../..');

export interface RunningServer {
  url: string;
  dataDir: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The real product as `npm start` runs it: the built PWA in dist/ and the API in one Node
 * process, on a fresh SQLite data dir (or TEST_DATABASE_URL is ignored: e2e is about the browser).
 */
export async function startBuiltServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(root, 'dist', 'index.html')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-e2e-'));
  let log = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    log += d;
  });
  child.stderr?.on('data', (d) => {
    log += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer /api/health in 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    output: () => log,
    stop(signal: NodeJS.Signals = 'SIGTERM') {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      });
    },
  };
}

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium as this machine runs it: no sandbox or GPU, no updates, sync or first-run UI. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
  });
}

export const phone = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
export const desktop = { viewport: { width: 1366, height: 768 } };

const shotsDir = path.join(root, 'screenshots');

/** Saves a screenshot under the git-ignored screenshots/ folder for a person to look at. */
export async function screenshot(context: BrowserContext, name: string): Promise<void> {
  fs.mkdirSync(shotsDir, { recursive: true });
  const page = context.pages().at(-1);
  await page?.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: false });
}

export interface ApiInit {
  method?: string;
  body?: unknown;
}

/** A JSON call to the running server's API as `token`; throws with the answer on a non-2xx. */
export async function apiCall<T>(
  server: RunningServer,
  path: string,
  token: string,
  init: ApiInit = {},
): Promise<T> {
  const res = await fetch(`${server.url}/api/${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
}

/** Signs in through the API and answers the token. */
export async function apiLogin(server: RunningServer, email: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/api/Registration/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return ((await res.json()) as { token: string }).token;
}
