import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { Role } from '../../../contract/roles';
import {
  type Account,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

const appSecret = 'a-test-secret-that-is-long-enough-0123456789';
let t: TestApp;
let admin: Account;
let employee: Account;

beforeAll(async () => {
  t = await createTestApp({
    LOGIN_MAX_PER_EMAIL: '3',
    LOGIN_MAX_PER_IP: '1000',
    LOGIN_WINDOW_SECONDS: '2',
    JWT_SECRET: appSecret,
  });
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
});
afterAll(() => t.close());

const login = (payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/Registration/login', payload, headers });
const optionList = (token: string) =>
  t.app.inject({ url: '/api/LeadStatus/call-statuses', headers: { authorization: `Bearer ${token}` } });

describe('POST /api/Registration/login', () => {
  it('answers token, email, roleId and message for good credentials, any email case', async () => {
    const res = await login({ email: employee.email.toUpperCase(), password: employee.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      token: expect.any(String),
      email: employee.email,
      roleId: Role.Employee,
      message: messages.login.success,
    });
    expect((await optionList(res.json().token)).statusCode).toBe(200);
  });

  it('gives the same 401 for a wrong password and an unknown email', async () => {
    const wrong = await login({ email: admin.email, password: 'Wrong@1234' });
    const unknown = await login({ email: 'nobody@example.com', password: 'Wrong@1234' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe(messages.login.invalidCredentials);
  });

  it('names missing fields with the spec messages', async () => {
    const res = await login({ email: '  ', password: ' ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      email: [messages.login.emailRequired],
      password: [messages.login.passwordRequired],
    });
    const wrongType = await login({ email: 42, password: ['x'] });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().title).toBeTruthy();
  });

  it('limits failed attempts per email with 429 + Retry-After, and lets the right password in after the window', async () => {
    const victim = await createAccount(t.app, admin, Role.Employee);
    // Start at the beginning of a fresh 2 s window so all attempts land in the same one.
    await new Promise((r) => setTimeout(r, 2000 - (Date.now() % 2000) + 20));
    for (let i = 0; i < 3; i++)
      expect((await login({ email: victim.email, password: 'Wrong@1234' })).statusCode).toBe(401);
    const blocked = await login({ email: victim.email, password: victim.password });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(blocked.json().message).toBe(messages.login.tooManyAttempts);
    // Another account is not affected by the victim's lock.
    expect((await login({ email: employee.email, password: employee.password })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, Number(blocked.headers['retry-after']) * 1000 + 50));
    expect((await login({ email: victim.email, password: victim.password })).statusCode).toBe(200);
  });
});

describe('tokens', () => {
  const secret = new TextEncoder().encode('x'.repeat(48));

  it('refuses a missing, malformed, forged or tampered token with 401', async () => {
    const anonymous = await t.app.inject({ url: '/api/LeadStatus/call-statuses' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ status: 401, title: 'Unauthorized' });

    const [header, payload] = employee.token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const edited = `${header}.${Buffer.from(JSON.stringify({ ...claims, roleId: Role.Admin })).toString('base64url')}.${employee.token.split('.')[2]}`;
    const otherSecret = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    for (const token of ['garbage', none, edited, otherSecret]) {
      expect((await optionList(token)).statusCode).toBe(401);
    }
    expect((await optionList(employee.token)).statusCode).toBe(200);
  });

  it("dies when the user's token version moves on (password reset)", async () => {
    const user = await createAccount(t.app, admin, Role.Employee);
    expect((await optionList(user.token)).statusCode).toBe(200);
    await t.app.deps.users.setPassword(user.id, 'irrelevant-hash');
    expect((await optionList(user.token)).statusCode).toBe(401);
  });

  it('dies when the account is deactivated', async () => {
    const user = await createAccount(t.app, admin, Role.Employee);
    await t.app.deps.db.updateTable('users').set({ is_active: 0 }).where('id', '=', user.id).execute();
    expect((await optionList(user.token)).statusCode).toBe(401);
    const refused = await login({ email: user.email, password: user.password });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.login.deactivated);
  });

  it('expires', async () => {
    const sign = (exp: number) =>
      new SignJWT({ email: employee.email, roleId: Role.Employee, tv: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(employee.id))
        .setIssuer('leadnest')
        .setAudience('leadnest-web')
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(appSecret));
    const now = Math.floor(Date.now() / 1000);
    expect((await optionList(await sign(now + 60))).statusCode).toBe(200);
    expect((await optionList(await sign(now - 10))).statusCode).toBe(401);
  });
});
