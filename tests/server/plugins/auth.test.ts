import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import authPlugin from '../../../server/plugins/auth';
import problemJson from '../../../server/plugins/problem-json';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

// The access rules of server/plugins/auth.ts on routes of their own, signed in through the real
// app's sessions (real tokens, real users table).
let t: TestApp;
let admin: Account;
let employee: Account;
let probe: FastifyInstance;

const whoAmI = (request: { user: { email: string } | null }) => ({ user: request.user?.email ?? null });

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);

  probe = Fastify({ logger: false, routerOptions: { caseSensitive: false } });
  probe.decorate('deps', t.app.deps);
  await probe.register(problemJson);
  await probe.register(authPlugin);
  probe.get('/api/no-rule', () => ({ reached: true }));
  probe.get('/api/open', { config: { access: 'public' } }, whoAmI);
  probe.get('/api/maybe', { config: { access: 'optional' } }, whoAmI);
  probe.get('/api/anyone', { config: { access: 'signed-in' } }, whoAmI);
  probe.get('/api/admin-only', { config: { access: [Role.Admin] } }, whoAmI);
  probe.post('/api/admin-only', { config: { access: [Role.Admin] } }, whoAmI);
  probe.get('/outside-api', () => ({ reached: true }));
  await probe.ready();
});

afterAll(async () => {
  await probe.close();
  await t.close();
});

const get = (url: string, account?: Account, method: 'GET' | 'HEAD' | 'POST' = 'GET') =>
  probe.inject({ method, url, headers: account ? bearer(account) : {} });

describe('route access rules', () => {
  it('refuse an /api route that declares none, whoever calls', async () => {
    for (const account of [undefined, admin]) {
      const res = await get('/api/no-rule', account);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ status: 403, message: 'This call has no access rule.' });
    }
  });

  it('let anyone call a public route, and a route outside /api', async () => {
    expect((await get('/api/open')).json()).toEqual({ user: null });
    expect((await get('/outside-api')).statusCode).toBe(200);
  });

  it('read a token on an optional route only when one is sent', async () => {
    expect((await get('/api/maybe')).json()).toEqual({ user: null });
    expect((await get('/api/maybe', employee)).json()).toEqual({ user: employee.email });
  });

  it('need a valid token on a signed-in route', async () => {
    expect((await get('/api/anyone')).statusCode).toBe(401);
    const forged = await probe.inject({
      method: 'GET',
      url: '/api/anyone',
      headers: { authorization: `Bearer ${employee.token}x` },
    });
    expect(forged.statusCode).toBe(401);
    const malformed = await probe.inject({
      method: 'GET',
      url: '/api/anyone',
      headers: { authorization: 'Basic abc' },
    });
    expect(malformed.statusCode).toBe(401);
    expect((await get('/api/anyone', employee)).json()).toEqual({ user: employee.email });
  });

  it('need one of the listed roles, on every method and spelling of the path', async () => {
    expect((await get('/api/admin-only', employee)).statusCode).toBe(403);
    expect((await get('/api/admin-only', admin)).json()).toEqual({ user: admin.email });
    expect((await get('/api/admin-only', employee, 'POST')).statusCode).toBe(403);
    // Fastify answers HEAD from the GET route, and the path matches in any case.
    expect((await get('/api/admin-only', undefined, 'HEAD')).statusCode).toBe(401);
    expect((await get('/api/admin-only', employee, 'HEAD')).statusCode).toBe(403);
    expect((await get('/API/ADMIN-ONLY')).statusCode).toBe(401);
    expect((await get('/Api/Admin-Only', employee)).statusCode).toBe(403);
  });

  it('sign the user out once their token version moves', async () => {
    const signedIn = await createAccount(t.app, admin, Role.Employee);
    expect((await get('/api/anyone', signedIn)).statusCode).toBe(200);
    await t.app.deps.db
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('id', '=', signedIn.id)
      .execute();
    expect((await get('/api/anyone', signedIn)).statusCode).toBe(401);
  });
});
