import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { createTestApp, type TestApp } from '../helpers/test-server';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the API as a whole', () => {
  it('reports health with the database reachable', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/Registration/login',
        '/api/Registration',
        '/api/LeadStatus/client-statuses',
      ]),
    );
    expect(doc.paths['/api/Registration/login'].post.requestBody).toBeDefined();
  });

  it('answers bad JSON, wrong content types, oversized bodies and unknown calls with problem JSON 4xx', async () => {
    const cases = [
      { payload: '{"email":', headers: { 'content-type': 'application/json' }, status: 400 },
      { payload: 'email=a', headers: { 'content-type': 'text/xml' }, status: 415 },
      {
        payload: JSON.stringify({ email: 'a'.repeat(2 * 1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
        status: 413,
      },
      {
        payload: '{"__proto__":{"admin":true},"email":"a@b.co","password":"x"}',
        headers: { 'content-type': 'application/json' },
        status: 400,
      },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/Registration/login', ...c });
      expect(res.statusCode, c.payload.slice(0, 30)).toBe(c.status);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({
        status: c.status,
        title: expect.any(String),
        message: expect.any(String),
      });
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
    const unknown = await t.app.inject({ url: '/api/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain('/api/nothing-here');
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('runs the database durably: SQLite in WAL with full sync, foreign keys and a busy timeout; PostgreSQL with synchronous commit', async () => {
    const db = t.app.deps.db;
    const one = async (statement: string) =>
      Object.values((await sql.raw(statement).execute(db)).rows[0] as object)[0];
    if (t.app.deps.dialect === 'sqlite') {
      expect(await one('pragma journal_mode')).toBe('wal');
      expect(await one('pragma synchronous')).toBe(2);
      expect(await one('pragma foreign_keys')).toBe(1);
      expect(await one('pragma busy_timeout')).toBe(5000);
    } else {
      expect(process.env.TEST_DATABASE_URL).toBeTruthy();
      expect(await one('show synchronous_commit')).toBe('on');
      expect(await one('show fsync')).toBe('on');
    }
  });
});

describe('configuration', () => {
  it('names each bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short' });
    } catch (e) {
      const text = (e as Error).message;
      expect(text).toContain('PORT');
      expect(text).toContain('DATABASE_URL');
      expect(text).toContain('JWT_SECRET');
    }
  });

  it('defaults to port 8093 and SQLite under ./data', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8093);
    expect(c.database).toMatchObject({ kind: 'sqlite' });
    expect(c.database.kind === 'sqlite' && c.database.file.endsWith('data/leadnest.sqlite')).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h/db',
    });
  });
});
