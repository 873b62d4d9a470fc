import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { verhoeffDigit } from '../../contract/aadhaar';
import type { RegistrationRequest } from '../../contract/auth';
import { Role, type RoleId } from '../../contract/roles';
import { type App, buildApp } from '../../server/app';
import { type Config, loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';

export interface TestApp {
  app: App;
  config: Config;
  close(): Promise<void>;
}

export interface TestServer extends TestApp {
  /** Origin of the listening server, e.g. http://127.0.0.1:40123 */
  url: string;
}

/**
 * The real app on a fresh database: a new SQLite file in a temp dir, or, when TEST_DATABASE_URL
 * is set, a new schema of that PostgreSQL database (so test files can run in parallel).
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, STATIC_DIR: 'none', LOG_LEVEL: 'silent', ...env });
  let dropSchema: (() => Promise<void>) | undefined;
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    config.database = { kind: 'postgres', url: pgUrl, schema };
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    };
  }
  const database = openDatabase(config.database);
  const app = await buildApp(config, { logger: false, database });
  return {
    app,
    config,
    async close() {
      await app.close();
      await database.close();
      await dropSchema?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const t = await createTestApp(env);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...t, url: address };
}

let counter = 0;

/** A random Aadhaar number that passes the Verhoeff check and does not start with 0 or 1. */
export function validAadhaar(): string {
  const body = `${2 + crypto.randomInt(8)}${String(crypto.randomInt(10_000_000_000)).padStart(10, '0')}`;
  return `${body}${verhoeffDigit(body)}`;
}

export function buildRegistration(overrides: Partial<RegistrationRequest> = {}): RegistrationRequest {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}${crypto.randomBytes(2).toString('hex')}`;
  return {
    email: `user-${tag}@example.com`,
    password: 'Secret@123',
    ConfirmPassword: overrides.password ?? 'Secret@123',
    contact: `9${String(crypto.randomInt(1_000_000_000)).padStart(9, '0')}`,
    adharNo: validAadhaar(),
    roleId: Role.Employee,
    ...overrides,
  };
}

export interface Account {
  id: number;
  email: string;
  password: string;
  roleId: RoleId;
  token: string;
}

async function login(app: App, email: string, password: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/Registration/login',
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().token;
}

/** Registers the very first account (an Admin, no token needed) and signs it in. */
export async function createFirstAdmin(
  app: App,
  overrides: Partial<RegistrationRequest> = {},
): Promise<Account> {
  const body = buildRegistration({ roleId: Role.Admin, ...overrides });
  const res = await app.inject({ method: 'POST', url: '/api/Registration', payload: body });
  if (res.statusCode !== 201) throw new Error(`first admin failed: ${res.statusCode} ${res.body}`);
  return {
    id: res.json().registrationId,
    email: body.email,
    password: body.password,
    roleId: Role.Admin,
    token: await login(app, body.email, body.password),
  };
}

/** Registers an account through the API as `admin` and signs it in. */
export async function createAccount(
  app: App,
  admin: Account,
  roleId: RoleId,
  overrides: Partial<RegistrationRequest> = {},
): Promise<Account> {
  const body = buildRegistration({ roleId, ...overrides });
  const res = await app.inject({
    method: 'POST',
    url: '/api/Registration',
    payload: body,
    headers: { authorization: `Bearer ${admin.token}` },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return {
    id: res.json().registrationId,
    email: body.email,
    password: body.password,
    roleId,
    token: await login(app, body.email, body.password),
  };
}

export const bearer = (account: Account) => ({ authorization: `Bearer ${account.token}` });
