import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { leadRows, toWorkbook } from '../../bench/lead-sheets';
import { Role } from '../../contract/roles';
import { freePort } from '../helpers/free-port';
import { buildRegistration } from '../helpers/test-server';

// README "Deploy", tried: two API nodes (the compiled server, `npm start`'s build) on one
// PostgreSQL, each with its own DATA_DIR and the shared secrets from the environment, behind
// the reverse proxy configs in deploy/ (Caddy and nginx from Debian, unprivileged on loopback).
// Needs TEST_DATABASE_URL; the nodes get a schema of their own in it.

const root = path.resolve(import.meta.dirname, '../..');
const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) throw new Error('tests/deploy needs TEST_DATABASE_URL (a PostgreSQL database)');
const CADDY = process.env.CADDY_PATH ?? '/usr/bin/caddy';
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

const ADMIN = { email: 'deploy-admin@example.com', password: 'Deploy@12345' };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-deploy-'));
const schema = `d_${crypto.randomBytes(6).toString('hex')}`;
const children: ChildProcess[] = [];

interface Proc {
  child: ChildProcess;
  log(): string;
}

function start(command: string, args: string[], env: Record<string, string>): Proc {
  let log = '';
  const child = spawn(command, args, {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    log += d;
  });
  child.stderr?.on('data', (d) => {
    log += d;
  });
  children.push(child);
  return { child, log: () => log };
}

async function waitFor(url: string, proc: Proc, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${what} exited early:\n${proc.log()}`);
    const ok = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url} in 60 s:\n${proc.log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const nodes: { url: string; port: number; proc: Proc }[] = [];

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build:server failed:\n${built.stdout}${built.stderr}`);

  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const databaseUrl = new URL(pgUrl!);
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`);

  // The secrets every node must share (README "Deploy"); each node has its own DATA_DIR, as on
  // two machines, so nothing generated there could paper over a missing one.
  const vapid = webpush.generateVAPIDKeys();
  const shared = {
    DATABASE_URL: databaseUrl.toString(),
    JWT_SECRET: crypto.randomBytes(48).toString('base64url'),
    AADHAAR_KEY: crypto.randomBytes(32).toString('hex'),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    TRUST_PROXY: 'true',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    STATIC_DIR: 'none',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
  };
  // One node first, so the migrations and the first Admin are made once.
  for (const n of [1, 2]) {
    const port = await freePort();
    const dataDir = path.join(work, `node${n}`);
    const proc = start(process.execPath, ['--enable-source-maps', 'dist-server/main.mjs'], {
      ...shared,
      PORT: String(port),
      DATA_DIR: dataDir,
    });
    const url = `http://127.0.0.1:${port}`;
    await waitFor(`${url}/api/health`, proc, `node ${n}`);
    nodes.push({ url, port, proc });
  }
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)),
  );
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
  fs.rmSync(work, { recursive: true, force: true });
});

/** deploy/Caddyfile itself, its placeholders pointed at loopback (http://: no certificate). */
async function startCaddy(): Promise<{ url: string; proc: Proc }> {
  const port = await freePort();
  const home = path.join(work, 'caddy');
  fs.mkdirSync(home, { recursive: true });
  const proc = start(
    CADDY,
    ['run', '--config', path.join(root, 'deploy/Caddyfile'), '--adapter', 'caddyfile'],
    {
      LEADNEST_SITE: `http://127.0.0.1:${port}`,
      LEADNEST_UPSTREAMS: nodes.map((n) => `127.0.0.1:${n.port}`).join(' '),
      CADDY_ADMIN: 'off',
      XDG_DATA_HOME: home,
      XDG_CONFIG_HOME: home,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, proc, 'caddy');
  return { url, proc };
}

/**
 * deploy/nginx-leadnest.conf with what needs root or a certificate swapped for loopback: the
 * upstream's servers, the port-80 redirect dropped, the 443 listen and certificate lines
 * replaced by a plain listen on a free port. Everything in the proxied location is kept.
 */
async function startNginx(): Promise<{ url: string; proc: Proc }> {
  const port = await freePort();
  const dir = path.join(work, 'nginx');
  fs.mkdirSync(dir, { recursive: true });
  let site = fs.readFileSync(path.join(root, 'deploy/nginx-leadnest.conf'), 'utf8');
  site = site.replace(/^\s*#?\s*server \d[^;]*:\d+;\n/gm, '');
  site = site.replace(
    /upstream leadnest \{/,
    `upstream leadnest {\n${nodes.map((n) => `    server 127.0.0.1:${n.port};`).join('\n')}`,
  );
  site = site.replace(/server \{\n\s*listen 80;[\s\S]*?\n\}\n/, '');
  site = site.replace(/\s*listen \[::\]:443[^;]*;/, '');
  site = site.replace(/listen 443 ssl http2;/, `listen 127.0.0.1:${port};`);
  site = site.replace(/\s*ssl_certificate(_key)? [^;]*;/g, '');
  expect(site).not.toMatch(/ssl|listen 80/);
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  // As root, nginx's workers would run as nobody, who cannot enter the 0700 temp dir.
  const user = process.getuid?.() === 0 ? `user ${os.userInfo().username};\n` : '';
  const conf = `${user}daemon off;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  ${site}
}
`;
  fs.writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const proc = start(
    NGINX,
    ['-e', path.join(dir, 'error.log'), '-p', dir, '-c', path.join(dir, 'nginx.conf')],
    {},
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, proc, 'nginx');
  return { url, proc };
}

async function call(base: string, token: string | null, method: string, route: string, body?: unknown) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      // A client that tries to pick its own address: the proxy must not pass it on.
      'x-forwarded-for': '203.0.113.9',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: <T>() => JSON.parse(text) as T };
}

const served = (route: string) => nodes.map((n) => n.proc.log().split(`"url":"${route}`).length - 1);

describe.each([
  ['Caddy', startCaddy],
  ['nginx', startNginx],
])('two API nodes on one PostgreSQL behind %s', (_name, startProxy) => {
  it('signs in, uploads on one node and shows the board from the other', async () => {
    const proxy = await startProxy();
    const signIn = await call(proxy.url, null, 'POST', '/api/Registration/login', ADMIN);
    expect(signIn.status).toBe(200);
    const adminToken = signIn.json<{ token: string }>().token;

    const employee = buildRegistration({ roleId: Role.Employee });
    expect((await call(proxy.url, adminToken, 'POST', '/api/Registration', employee)).status).toBe(201);
    const employeeLogin = await call(proxy.url, null, 'POST', '/api/Registration/login', {
      email: employee.email,
      password: employee.password,
    });
    expect(employeeLogin.status).toBe(200);
    const employeeToken = employeeLogin.json<{ token: string }>().token;

    // The upload, through the proxy: one node takes it.
    const rows = leadRows(25, { phoneBase: 6_000_000_000 + crypto.randomInt(900_000_000) });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(toWorkbook(rows))]), 'leads.xlsx');
    const uploadsBefore = served('/api/Admin/upload-leads');
    const upload = await fetch(`${proxy.url}/api/Admin/upload-leads?autoAssign=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
      body: form,
    });
    expect(upload.status).toBe(200);
    expect(((await upload.json()) as { inserted: number }).inserted).toBe(25);
    const uploadNode = served('/api/Admin/upload-leads').findIndex((n, i) => n > uploadsBefore[i]!);
    expect(uploadNode).toBeGreaterThanOrEqual(0);

    // The employee's board, through the proxy, until the other node has answered it.
    let board: { status: number; names: string[] } | null = null;
    for (let attempt = 0; attempt < 6 && !board; attempt++) {
      const before = served('/api/Admin/leads');
      const res = await call(proxy.url, employeeToken, 'GET', '/api/Admin/leads');
      const after = served('/api/Admin/leads');
      const node = after.findIndex((n, i) => n > before[i]!);
      if (node !== uploadNode && node >= 0) {
        board = { status: res.status, names: res.json<{ name: string }[]>().map((l) => l.name) };
      }
    }
    expect(board, 'the proxy never sent the board to the other node').not.toBeNull();
    expect(board!.status).toBe(200);
    const uploaded = rows.slice(1).map((r) => String(r[0]));
    expect(uploaded.filter((name) => !board!.names.includes(name))).toEqual([]);

    // One trusted hop: the nodes saw the proxy's client (loopback), never the forged address.
    const logs = nodes.map((n) => n.proc.log()).join('\n');
    expect(logs).not.toContain('203.0.113.9');
    expect(logs).toContain('"remoteAddress":"127.0.0.1"');

    proxy.proc.child.kill('SIGTERM');
  });
});
