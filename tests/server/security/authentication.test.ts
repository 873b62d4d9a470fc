import crypto from 'node:crypto';
import * as argon2Module from '@node-rs/argon2';
import type { InjectOptions } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, type Mock, vi } from 'vitest';
import { verhoeffDigit, verhoeffValid } from '../../../contract/aadhaar';
import { messages } from '../../../contract/messages';
import { passwordMessages } from '../../../contract/password';
import { Role } from '../../../contract/roles';
import { resetLinkIn, resetTokenOf, type SmtpSink, startSmtpSink } from '../../helpers/mail';
import {
  type Account,
  bearer,
  buildRegistration,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
  validAadhaar,
} from '../../helpers/test-server';

// OWASP ASVS 6, 7, 9 (DESIGN.md §3, §6): forged and stale tokens, brute force, the reset flow,
// password and Aadhaar rules, and how passwords are stored.

// The real argon2, watched: every hash and verify is counted and still computed.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, hash: vi.fn(real.hash), verify: vi.fn(real.verify) };
});
const argon2 = argon2Module as unknown as { hash: Mock; verify: Mock };

const WINDOW_SECONDS = 3;
const MAX_PER_EMAIL = 3;
const MAX_PER_IP = 8;
const appSecret = crypto.randomBytes(32).toString('hex');
const m = messages.registration;

let sink: SmtpSink;
let t: TestApp;
let admin: Account;
let employee: Account;
let ipCounter = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({
    JWT_SECRET: appSecret,
    SMTP_URL: sink.url,
    LOGIN_MAX_PER_EMAIL: String(MAX_PER_EMAIL),
    LOGIN_MAX_PER_IP: String(MAX_PER_IP),
    LOGIN_WINDOW_SECONDS: String(WINDOW_SECONDS),
  });
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

/** A new client address per caller, so the per-IP limits of one test never touch another. */
const newIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const inject = (options: InjectOptions) => t.app.inject({ remoteAddress: newIp(), ...options });
const login = (email: string, password: string, remoteAddress = newIp()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/Registration/login',
    payload: { email, password },
    remoteAddress,
  });
const forgot = (email: string, remoteAddress = newIp()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/Registration/forgotpassword',
    payload: { email },
    remoteAddress,
  });
const reset = (token: string, password: string) =>
  inject({
    method: 'POST',
    url: '/api/Registration/reset-password',
    payload: { token, password, ConfirmPassword: password },
  });
/** An Admin-only call: a token that claims more than it is must not get through it. */
const employeesWith = (token: string) =>
  inject({ url: '/api/Admin/employees', headers: { authorization: `Bearer ${token}` } });
const optionsWith = (token: string) =>
  inject({ url: '/api/LeadStatus/call-statuses', headers: { authorization: `Bearer ${token}` } });

/** Waits for the start of a fresh rate-limit window, so that a test's attempts share one. */
async function freshWindow() {
  const ms = WINDOW_SECONDS * 1000;
  await new Promise((r) => setTimeout(r, ms - (Date.now() % ms) + 20));
}

async function mailedToken(account: Account): Promise<string> {
  sink.skipPending();
  expect((await forgot(account.email)).statusCode).toBe(200);
  const mail = await sink.next();
  expect(mail.to).toEqual([account.email]);
  return resetTokenOf(resetLinkIn(mail.raw));
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('forged tokens get 401', () => {
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
  const sign = (claims: Record<string, unknown>, secret: string, alg = 'HS256') =>
    new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(new TextEncoder().encode(secret));

  it('refuses alg none, a wrong signature, edited claims, another secret, another algorithm, expiry', async () => {
    const [header, payload, signature] = employee.token.split('.') as [string, string, string];
    const claims = claimsOf(employee.token);
    const now = Math.floor(Date.now() / 1000);
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const forged: Record<string, string> = {
      'alg none, no signature': `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, roleId: Role.Admin })}.`,
      'alg none, the old signature': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`,
      'alg NONE in capitals': `${b64({ alg: 'NONE' })}.${b64({ ...claims, roleId: Role.Admin })}.`,
      'wrong signature': `${header}.${payload}.${flipped}`,
      'no signature': `${header}.${payload}.`,
      'roleId edited to Admin': `${header}.${b64({ ...claims, roleId: Role.Admin })}.${signature}`,
      'sub edited to the Admin': `${header}.${b64({ ...claims, sub: String(admin.id) })}.${signature}`,
      'tv edited': `${header}.${b64({ ...claims, tv: claims.tv + 1 })}.${signature}`,
      'exp pushed out': `${header}.${b64({ ...claims, exp: now + 10 * 365 * 86400 })}.${signature}`,
      'signed with another secret': await sign(
        { ...claims, roleId: Role.Admin },
        'another-secret-of-32-characters!!',
      ),
      'signed HS512 with the right secret': await sign({ ...claims, roleId: Role.Admin }, appSecret, 'HS512'),
      'expired, right secret': await sign({ ...claims, iat: now - 7200, exp: now - 60 }, appSecret),
      'not yet valid, right secret': await sign({ ...claims, nbf: now + 3600 }, appSecret),
      'another issuer, right secret': await sign({ ...claims, iss: 'someone-else' }, appSecret),
      'another audience, right secret': await sign({ ...claims, aud: 'other-app' }, appSecret),
      'no token version, right secret': await sign({ ...claims, tv: undefined }, appSecret),
      'an unknown user, right secret': await sign({ ...claims, sub: '999999' }, appSecret),
      garbage: 'not.a.jwt',
      empty: '',
    };
    // The same claims re-signed with the app's own secret do get in: the refusals above are real.
    expect((await optionsWith(await sign(claims, appSecret))).statusCode).toBe(200);
    for (const [label, token] of Object.entries(forged)) {
      for (const call of [optionsWith, employeesWith]) {
        const res = await call(token);
        expect(res.statusCode, `${label} on ${call.name}`).toBe(401);
        expect(res.headers['content-type']).toContain('application/problem+json');
      }
    }
    // A real, edited-role-free token of an employee is still only an employee's.
    expect((await employeesWith(employee.token)).statusCode).toBe(403);
  });

  it('a role changed in the database outdates the tokens that claim the old role', async () => {
    const manager = await createAccount(t.app, admin, Role.Manager);
    await t.app.deps.db
      .updateTable('users')
      .set({ role_id: Role.Employee })
      .where('id', '=', manager.id)
      .execute();
    expect((await employeesWith(manager.token)).statusCode).toBe(401);
  });
});

describe('old tokens die', () => {
  it('after a password reset, with the reset link working once and never after it expires', async () => {
    const user = await createAccount(t.app, admin, Role.Employee);
    const second = await login(user.email, user.password);
    const tokens = [user.token, second.json().token as string];
    for (const token of tokens) expect((await optionsWith(token)).statusCode).toBe(200);

    const link = await mailedToken(user);
    expect((await reset(link, 'Fresh@Pass1')).statusCode).toBe(200);
    for (const token of tokens) expect((await optionsWith(token)).statusCode).toBe(401);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    const fresh = await login(user.email, 'Fresh@Pass1');
    expect(fresh.statusCode).toBe(200);
    expect((await optionsWith(fresh.json().token)).statusCode).toBe(200);

    // Single use: the same link again changes nothing.
    const replay = await reset(link, 'Replay@Pass2');
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(passwordMessages.tokenUsed);
    expect((await login(user.email, 'Fresh@Pass1')).statusCode).toBe(200);

    // Expiry: a link past its 30 minutes is refused and the password stays.
    const late = await mailedToken(user);
    await t.app.deps.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const expired = await reset(late, 'Late@Pass3');
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(passwordMessages.tokenExpired);
    expect((await login(user.email, 'Fresh@Pass1')).statusCode).toBe(200);
  });

  it('when the account is deactivated (the flag set in the database, as on another node)', async () => {
    const user = await createAccount(t.app, admin, Role.Employee);
    await t.app.deps.db.updateTable('users').set({ is_active: 0 }).where('id', '=', user.id).execute();
    expect((await optionsWith(user.token)).statusCode).toBe(401);
    const refused = await login(user.email, user.password);
    const wrong = await login(user.email, 'Wrong@1234');
    const stranger = await login('nobody-here@example.com', 'Wrong@1234');
    // Issue 17: the right password is told the account is deactivated; a guesser learns nothing.
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.login.deactivated);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(stranger.json());
    await t.app.deps.db.updateTable('users').set({ is_active: 1 }).where('id', '=', user.id).execute();
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });
});

describe('brute force', () => {
  it('answers the same 401 for an unknown email, a wrong password and a deactivated account', async () => {
    const known = await login(employee.email, 'Wrong@1234');
    const unknown = await login(`nobody-${crypto.randomBytes(3).toString('hex')}@example.com`, 'Wrong@1234');
    expect(known.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    expect(known.json().message).toBe(messages.login.invalidCredentials);
  });

  it('locks an email at the guessing address with 429 + Retry-After past the limit, then lets the right password in', async () => {
    const victim = await createAccount(t.app, admin, Role.Employee);
    const attacker = newIp();
    await freshWindow();
    for (let i = 0; i < MAX_PER_EMAIL; i++) {
      expect((await login(victim.email, `Wrong@${i}234`, attacker)).statusCode).toBe(401);
    }
    // Locked at that address: even the right password, in another case.
    const blocked = await login(victim.email.toUpperCase(), victim.password, attacker);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['content-type']).toContain('application/problem+json');
    expect(blocked.json().message).toBe(messages.login.tooManyAttempts);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    // The owner, from their own address, is not locked out by someone else's guesses (issue 16).
    expect((await login(victim.email, victim.password)).statusCode).toBe(200);
    // Another account is not locked by the victim's attempts.
    expect((await login(employee.email, employee.password, attacker)).statusCode).toBe(200);

    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 50));
    expect((await login(victim.email, victim.password, attacker)).statusCode).toBe(200);
  });

  it('locks unknown emails the same way, so the lock does not tell which emails exist', async () => {
    await freshWindow();
    const ghost = `ghost-${crypto.randomBytes(3).toString('hex')}@example.com`;
    const attacker = newIp();
    for (let i = 0; i < MAX_PER_EMAIL; i++)
      expect((await login(ghost, 'Wrong@1234', attacker)).statusCode).toBe(401);
    const blocked = await login(ghost, 'Wrong@1234', attacker);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('limits attempts per address across many emails', async () => {
    await freshWindow();
    const ip = newIp();
    // Sent until refused: should a slow machine cross into the next window, the count restarts,
    // but a 429 must still come, and never before MAX_PER_IP attempts.
    let failures = 0;
    let blocked: Awaited<ReturnType<typeof login>> | null = null;
    for (let i = 0; i < 3 * MAX_PER_IP && !blocked; i++) {
      const res = await login(`spray-${i}@example.com`, 'Wrong@1234', ip);
      if (res.statusCode === 429) blocked = res;
      else expect(res.statusCode).toBe(401);
      if (res.statusCode === 401) failures++;
    }
    expect(blocked?.statusCode).toBe(429);
    expect(failures).toBeGreaterThanOrEqual(MAX_PER_IP);
    expect(Number(blocked!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another address is not affected.
    expect((await login(employee.email, employee.password)).statusCode).toBe(200);
  });
});

describe('forgot password', () => {
  it('answers a known and an unknown email identically, and mails only the known one', async () => {
    sink.skipPending();
    const before = sink.received.length;
    const known = await forgot(employee.email);
    const unknown = await forgot(`nobody-${crypto.randomBytes(3).toString('hex')}@example.com`);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    const headerNames = (h: Record<string, unknown>) =>
      Object.keys(h)
        .filter((k) => k !== 'date')
        .sort();
    expect(headerNames(unknown.headers)).toEqual(headerNames(known.headers));
    await t.app.deps.passwordReset.idle();
    expect(sink.received.length).toBe(before + 1);
    sink.skipPending();
  });

  it('is rate limited per email, known or unknown, with 429 and Retry-After', async () => {
    await freshWindow();
    for (const email of [admin.email, `nobody-${crypto.randomBytes(3).toString('hex')}@example.com`]) {
      let res = await forgot(email);
      for (let i = 0; i < 10 && res.statusCode === 200; i++) res = await forgot(email);
      expect(res.statusCode).toBe(429);
      expect(res.json().message).toBe(passwordMessages.tooManyRequests);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    await t.app.deps.passwordReset.idle();
    sink.skipPending();
  });
});

describe('password rules (spec §5)', () => {
  const cases: [string, string, boolean][] = [
    ['exactly 8 with every class', 'Abcdef1@', true],
    ['every allowed special', 'Aa1@$!%*?&', true],
    ['7 characters', 'Abcde1@', false],
    ['no uppercase', 'abcdef1@', false],
    ['no lowercase', 'ABCDEF1@', false],
    ['no digit', 'Abcdefg@', false],
    ['no special', 'Abcdefg1', false],
    ['a special outside @$!%*?&', 'Abcdef1#', false],
    ['a space', 'Abc def1@', false],
    ['a non-ASCII letter', 'Äbcdef1@x', false],
    ['only spaces', '        ', false],
  ];

  it.each(cases)('registration: %s', async (_label, password, ok) => {
    const res = await inject({
      method: 'POST',
      url: '/api/Registration',
      headers: bearer(admin),
      payload: buildRegistration({ password, ConfirmPassword: password }),
    });
    if (ok) {
      expect(res.statusCode).toBe(201);
      return;
    }
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.password).toContain(m.passwordRule);
  });

  it('a reset applies the same rules', async () => {
    const link = await mailedToken(await createAccount(t.app, admin, Role.Employee));
    for (const [, password, ok] of cases) {
      if (ok) continue;
      const res = await reset(link, password);
      expect(res.statusCode, password).toBe(400);
      expect(res.json().errors.password).toContain(m.passwordRule);
    }
    expect((await reset(link, 'Abcdef1@')).statusCode).toBe(200);
  });

  it('a megabyte-long password is refused before the password hasher ever sees it', async () => {
    const huge = `Aa1@${'x'.repeat(1024 * 1024)}`;
    const long = `Aa1@${'x'.repeat(64 * 1024)}`;
    const loginBody = (password: string, email = employee.email) => JSON.stringify({ email, password });
    const registrationBody = (password: string) =>
      JSON.stringify(buildRegistration({ password, ConfirmPassword: password }));
    const json = { 'content-type': 'application/json' };
    const argonCalls = () => argon2.hash.mock.calls.length + argon2.verify.mock.calls.length;

    // The counter sees the hasher: a normal failed sign-in (an unknown email is checked against
    // a dummy hash) is one argon2id verification.
    const before = argonCalls();
    const normal = await inject({
      method: 'POST',
      url: '/api/Registration/login',
      payload: loginBody('Wrong@1234', 'counter-check@example.com'),
      headers: json,
    });
    expect(normal.statusCode).toBe(401);
    expect(argonCalls()).toBeGreaterThan(before);

    const attempts: [string, InjectOptions][] = [
      [
        'login, 1 MB',
        { method: 'POST', url: '/api/Registration/login', payload: loginBody(huge), headers: json },
      ],
      [
        'login, 64 KB',
        { method: 'POST', url: '/api/Registration/login', payload: loginBody(long), headers: json },
      ],
      [
        'registration, 1 MB',
        {
          method: 'POST',
          url: '/api/Registration',
          payload: registrationBody(huge),
          headers: { ...json, ...bearer(admin) },
        },
      ],
      [
        'registration, 64 KB',
        {
          method: 'POST',
          url: '/api/Registration',
          payload: registrationBody(long),
          headers: { ...json, ...bearer(admin) },
        },
      ],
      [
        'reset, 1 MB',
        {
          method: 'POST',
          url: '/api/Registration/reset-password',
          payload: JSON.stringify({ token: 'x'.repeat(32), password: huge, ConfirmPassword: huge }),
          headers: json,
        },
      ],
    ];
    for (const [label, options] of attempts) {
      const calls = argonCalls();
      const res = await inject(options);
      expect([400, 413], label).toContain(res.statusCode);
      expect(res.headers['content-type'], label).toContain('application/problem+json');
      // Hashing a megabyte costs a whole sign-in of CPU per request: refused before the hasher.
      expect(argonCalls(), label).toBe(calls);
    }
    // None of them counted as a failed sign-in of that account.
    expect((await login(employee.email, employee.password)).statusCode).toBe(200);
  });
});

describe('Aadhaar numbers (DESIGN.md §3)', () => {
  const register = (adharNo: string) =>
    inject({
      method: 'POST',
      url: '/api/Registration',
      headers: bearer(admin),
      payload: buildRegistration({ adharNo }),
    });
  const valid = validAadhaar();

  it.each([
    ['11 digits', valid.slice(0, 11), m.aadhaarRule],
    ['13 digits', `${valid}7`, m.aadhaarRule],
    ['letters', `${valid.slice(0, 11)}A`, m.aadhaarRule],
    [
      'spaces as printed on the card',
      `${valid.slice(0, 4)} ${valid.slice(4, 8)} ${valid.slice(8)}`,
      m.aadhaarRule,
    ],
    ['empty', '', m.aadhaarRule],
    ['a leading 0', `0${valid.slice(1, 11)}${verhoeffDigit(`0${valid.slice(1, 11)}`)}`, m.aadhaarFirstDigit],
    ['a leading 1', `1${valid.slice(1, 11)}${verhoeffDigit(`1${valid.slice(1, 11)}`)}`, m.aadhaarFirstDigit],
    ['a wrong check digit', `${valid.slice(0, 11)}${(Number(valid[11]) + 1) % 10}`, m.aadhaarChecksum],
  ])('refuses %s with its message', async (_label, adharNo, message) => {
    const res = await register(adharNo);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.adharNo).toEqual([message]);
  });

  it('keeps the spec wording for length, and a clear sentence for the checksum', () => {
    expect(m.aadhaarRule).toBe('Aadhaar number must be exactly 12 digits.');
    expect(m.aadhaarChecksum).toMatch(/not valid/i);
  });

  it('the Verhoeff check catches every single-digit typo and every swap of two neighbours', () => {
    expect(verhoeffValid(valid)).toBe(true);
    let caught = 0;
    for (let i = 0; i < 12; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === valid[i]) continue;
        const typo = `${valid.slice(0, i)}${d}${valid.slice(i + 1)}`;
        expect(verhoeffValid(typo), typo).toBe(false);
        caught++;
      }
      if (i < 11 && valid[i] !== valid[i + 1]) {
        const swapped = `${valid.slice(0, i)}${valid[i + 1]}${valid[i]}${valid.slice(i + 2)}`;
        expect(verhoeffValid(swapped), swapped).toBe(false);
      }
    }
    expect(caught).toBe(108);
  });

  it('accepts a valid number', async () => {
    expect((await register(validAadhaar())).statusCode).toBe(201);
  });
});

describe('stored passwords', () => {
  const params = (hash: string) => {
    const match =
      /^\$(argon2(?:id|i|d))\$v=(\d+)\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.exec(hash);
    expect(match, hash.slice(0, 40)).not.toBeNull();
    const [, variant, version, memory, time] = match!;
    return { variant, version: Number(version), memory: Number(memory), time: Number(time) };
  };

  it('are argon2id with m ≥ 19456 KiB and t ≥ 2, salted per user, for registered and reset passwords', async () => {
    const twin = await createAccount(t.app, admin, Role.Employee, { password: employee.password });
    const link = await mailedToken(twin);
    expect((await reset(link, employee.password)).statusCode).toBe(200);
    const rows = await t.app.deps.db.selectFrom('users').select(['id', 'password_hash']).execute();
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      const p = params(row.password_hash);
      expect(p.variant).toBe('argon2id');
      expect(p.version).toBe(19);
      expect(p.memory).toBeGreaterThanOrEqual(19456);
      expect(p.time).toBeGreaterThanOrEqual(2);
    }
    // Same password, different salts: the stored strings differ.
    const hashOf = (id: number) => rows.find((r) => r.id === id)!.password_hash;
    expect(hashOf(twin.id)).not.toBe(hashOf(employee.id));
  });
});
