import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { passwordMessages } from '../../../contract/password';
import { Role } from '../../../contract/roles';
import { resetLinkIn, resetTokenOf, type SmtpSink, startSmtpSink } from '../../helpers/mail';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

const publicUrl = 'https://leads.example.test';
let sink: SmtpSink;
let t: TestApp;
let admin: Account;
let ipCounter = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({
    SMTP_URL: sink.url,
    PUBLIC_URL: publicUrl,
    MAIL_FROM: 'LeadNest <reset@leadnest.test>',
  });
  admin = await createFirstAdmin(t.app);
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

// Each test comes from its own address, so the per-IP limit of one test does not touch another.
const newIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const forgot = (email: unknown, ip = newIp(), headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/registration/forgotpassword',
    payload: { email },
    remoteAddress: ip,
    headers,
  });
const reset = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/registration/reset-password', payload });
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/Registration/login', payload: { email, password } });
const newPassword = 'Brand@New9';

/** Asks for a reset of `account` and answers the token out of the mail it receives. */
async function mailedToken(account: Account): Promise<string> {
  const answer = await forgot(account.email);
  expect(answer.statusCode).toBe(200);
  const mail = await sink.next();
  expect(mail.to).toEqual([account.email]);
  return resetTokenOf(resetLinkIn(mail.raw));
}

describe('POST /api/registration/forgotpassword', () => {
  it('mails a link to PUBLIC_URL/reset-password, never to the Host the request names', async () => {
    const employee = await createAccount(t.app, admin, Role.Employee);
    const res = await forgot(employee.email.toUpperCase(), newIp(), {
      host: 'evil.example.com',
      'x-forwarded-host': 'evil.example.com',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: messages.password.forgotAnswer });

    const mail = await sink.next();
    expect(mail.to).toEqual([employee.email]);
    expect(mail.from).toBe('reset@leadnest.test');
    expect(mail.raw).toContain(`Subject: ${passwordMessages.mailSubject}`);
    expect(mail.raw).not.toContain('evil.example.com');
    const link = resetLinkIn(mail.raw);
    expect(`${link.origin}${link.pathname}`).toBe(`${publicUrl}/reset-password`);
    expect(Buffer.from(resetTokenOf(link), 'base64url')).toHaveLength(32);
  });

  it('stores only a hash of the token', async () => {
    const employee = await createAccount(t.app, admin, Role.Employee);
    const token = await mailedToken(employee);
    const rows = await t.app.deps.db
      .selectFrom('password_resets')
      .selectAll()
      .where('user_id', '=', employee.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    const minutes = (Date.parse(rows[0]!.expires_at) - Date.parse(rows[0]!.created_at)) / 60_000;
    expect(minutes).toBe(30);
  });

  it('answers an unknown email exactly like a known one, and mails nothing', async () => {
    const before = sink.received.length;
    const res = await forgot('nobody-here@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: messages.password.forgotAnswer });
    await t.app.deps.passwordReset.idle();
    expect(sink.received.length).toBe(before);
  });

  it('needs an email', async () => {
    const res = await forgot('   ');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.email).toContain(messages.registration.emailRequired);
  });

  it('limits requests per email, known or not, with 429 and Retry-After', async () => {
    for (const email of ['limit-me@example.com', admin.email]) {
      for (let i = 0; i < 5; i++) expect((await forgot(email)).statusCode).toBe(200);
      const blocked = await forgot(email.toUpperCase());
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(blocked.json().message).toBe(passwordMessages.tooManyRequests);
    }
    // Another address from the same place is not affected.
    expect((await forgot('someone-else@example.com')).statusCode).toBe(200);
    await t.app.deps.passwordReset.idle();
    sink.skipPending();
  });

  it('limits requests per IP address', async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i++) expect((await forgot(`ip-${i}@example.com`, ip)).statusCode).toBe(200);
    const blocked = await forgot('ip-last@example.com', ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });
});

describe('POST /api/registration/reset-password', () => {
  it('sets the new password, signs out every old token, and the link works once', async () => {
    const employee = await createAccount(t.app, admin, Role.Employee);
    const token = await mailedToken(employee);

    const res = await reset({ token, password: newPassword, ConfirmPassword: newPassword });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: passwordMessages.resetDone });

    expect((await login(employee.email, employee.password)).statusCode).toBe(401);
    expect((await login(employee.email, newPassword)).statusCode).toBe(200);
    const oldToken = await t.app.inject({ url: '/api/LeadStatus/call-statuses', headers: bearer(employee) });
    expect(oldToken.statusCode).toBe(401);

    const again = await reset({ token, password: 'Other@Pass9', ConfirmPassword: 'Other@Pass9' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(passwordMessages.tokenUsed);
    expect((await login(employee.email, newPassword)).statusCode).toBe(200);
  });

  it('refuses an expired link', async () => {
    const employee = await createAccount(t.app, admin, Role.Employee);
    const token = await mailedToken(employee);
    await t.app.deps.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', employee.id)
      .execute();
    const res = await reset({ token, password: newPassword, ConfirmPassword: newPassword });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(passwordMessages.tokenExpired);
    expect(res.json().errors.token).toEqual([passwordMessages.tokenExpired]);
    expect((await login(employee.email, employee.password)).statusCode).toBe(200);
  });

  it('refuses a token it never issued', async () => {
    const res = await reset({
      token: crypto.randomBytes(32).toString('base64url'),
      password: newPassword,
      ConfirmPassword: newPassword,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(passwordMessages.tokenUnknown);
  });

  it('applies the registration password rules and keeps the link usable after a refused try', async () => {
    const employee = await createAccount(t.app, admin, Role.Employee);
    const token = await mailedToken(employee);
    const weak = await reset({ token, password: 'weakpass', ConfirmPassword: 'weakpass' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors.password).toContain(messages.registration.passwordRule);
    const mismatch = await reset({ token, password: newPassword, ConfirmPassword: 'Brand@New8' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.ConfirmPassword).toContain(messages.registration.confirmMismatch);
    const empty = await reset({ token, password: newPassword, ConfirmPassword: '' });
    expect(empty.json().errors.ConfirmPassword).toContain(messages.registration.confirmRequired);

    expect((await reset({ token, password: newPassword, ConfirmPassword: newPassword })).statusCode).toBe(
      200,
    );
  });

  it('retires the other links of that user once one is used', async () => {
    const employee = await createAccount(t.app, admin, Role.Employee);
    const first = await mailedToken(employee);
    const second = await mailedToken(employee);
    expect(first).not.toBe(second);
    expect(
      (await reset({ token: second, password: newPassword, ConfirmPassword: newPassword })).statusCode,
    ).toBe(200);
    const stale = await reset({ token: first, password: 'Other@Pass9', ConfirmPassword: 'Other@Pass9' });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toBe(passwordMessages.tokenUsed);
  });

  it('lets only one of two simultaneous uses of a link through', async () => {
    const employee = await createAccount(t.app, admin, Role.Employee);
    const token = await mailedToken(employee);
    const [a, b] = await Promise.all([
      reset({ token, password: 'First@Pass1', ConfirmPassword: 'First@Pass1' }),
      reset({ token, password: 'Second@Pass2', ConfirmPassword: 'Second@Pass2' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const winner = a.statusCode === 200 ? 'First@Pass1' : 'Second@Pass2';
    const loser = a.statusCode === 200 ? 'Second@Pass2' : 'First@Pass1';
    expect((await login(employee.email, winner)).statusCode).toBe(200);
    expect((await login(employee.email, loser)).statusCode).toBe(401);
  });
});
