import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { Role } from '../../../contract/roles';
import {
  type Account,
  bearer,
  buildRegistration,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

const m = messages.registration;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const register = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/Registration', payload: payload as object, headers });

describe('the very first account', () => {
  it('must be an Admin, and needs no token', async () => {
    const employee = await register(buildRegistration({ roleId: Role.Employee }));
    expect(employee.statusCode).toBe(400);
    expect(employee.json().message).toBe(m.firstAccountMustBeAdmin);
  });
});

// Runs after the first-account test above, on the same database.
let admin: Account;

describe('POST /api/Registration', () => {
  beforeAll(async () => {
    admin = await createFirstAdmin(t.app);
  });

  it('refuses anonymous callers once an account exists, and non-admins', async () => {
    expect((await register(buildRegistration())).statusCode).toBe(401);
    const employee = await createAccount(t.app, admin, Role.Employee);
    const res = await register(buildRegistration(), bearer(employee));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ title: 'Forbidden', status: 403 });
  });

  it('registers an account for an Admin and never returns secrets', async () => {
    const body = buildRegistration({ roleId: Role.Manager, email: 'Mixed.Case@Example.com' });
    const res = await register(body, bearer(admin));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      registrationId: expect.any(Number),
      email: 'mixed.case@example.com',
      roleId: Role.Manager,
      message: m.success,
    });
    expect(res.body).not.toContain(body.adharNo);
    expect(res.body).not.toContain('argon2');
  });

  it('stores argon2id hashes and an encrypted Aadhaar with only the last four digits readable', async () => {
    const body = buildRegistration();
    await register(body, bearer(admin));
    const row = await t.app.deps.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', body.email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.aadhaar_enc).not.toContain(body.adharNo);
    expect(t.app.deps.vault.decrypt(row.aadhaar_enc!)).toBe(body.adharNo);
    expect(row.aadhaar_last4).toBe(body.adharNo.slice(-4));
  });

  it.each([
    ['email', { email: '' }, m.emailRequired],
    ['email', { email: 'not-an-email' }, m.emailInvalid],
    ['password', { password: 'short1!A', ConfirmPassword: 'short1!A' }, undefined],
    ['password', { password: 'alllowercase1@', ConfirmPassword: 'alllowercase1@' }, m.passwordRule],
    ['password', { password: 'NoSpecial123', ConfirmPassword: 'NoSpecial123' }, m.passwordRule],
    ['password', { password: 'Bad#Char123', ConfirmPassword: 'Bad#Char123' }, m.passwordRule],
    ['ConfirmPassword', { ConfirmPassword: '' }, m.confirmRequired],
    ['ConfirmPassword', { ConfirmPassword: 'Other@1234' }, m.confirmMismatch],
    ['contact', { contact: '12345' }, m.contactRule],
    ['contact', { contact: '98765abcde' }, m.contactRule],
    ['adharNo', { adharNo: '1234' }, m.aadhaarRule],
    ['adharNo', { adharNo: '123456789012' }, m.aadhaarFirstDigit],
    ['adharNo', { adharNo: '234567890123' }, m.aadhaarChecksum],
    ['roleId', { roleId: 7 }, m.roleRequired],
    ['roleId', { roleId: undefined }, m.roleRequired],
  ])('rejects a bad %s with its message (%j)', async (field, override, message) => {
    const res = await register({ ...buildRegistration(), ...override }, bearer(admin));
    if (message === undefined) {
      // 'short1!A' is 8 characters and meets every rule: the boundary is accepted.
      expect(res.statusCode).toBe(201);
      return;
    }
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors[field]).toContain(message);
  });

  it('answers 409 with the message the form maps to a field for each duplicate', async () => {
    const first = buildRegistration();
    expect((await register(first, bearer(admin))).statusCode).toBe(201);
    const cases = [
      [{ email: first.email.toUpperCase() }, m.emailExists],
      [{ contact: first.contact }, m.contactExists],
      [{ adharNo: first.adharNo }, m.aadhaarExists],
    ] as const;
    for (const [override, message] of cases) {
      const res = await register(buildRegistration(override), bearer(admin));
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(message);
      expect(res.json().title).toBe(message);
    }
  });

  it('refuses a megabyte-long password without hashing it', async () => {
    const huge = `Aa1@${'x'.repeat(1024 * 1024)}`;
    const res = await register(buildRegistration({ password: huge, ConfirmPassword: huge }), bearer(admin));
    expect([400, 413]).toContain(res.statusCode);
    expect(res.json().message).toBeTruthy();
    const long = `Aa1@${'x'.repeat(200)}`;
    const res2 = await register(buildRegistration({ password: long, ConfirmPassword: long }), bearer(admin));
    expect(res2.statusCode).toBe(400);
    expect(res2.json().errors.password).toContain(m.passwordRule);
  });
});

describe('duplicate checks', () => {
  it('need an Admin token and answer a boolean', async () => {
    const anon = await t.app.inject({ url: `/api/Registration/check-email?email=${admin.email}` });
    expect(anon.statusCode).toBe(401);

    const account = await createAccount(t.app, admin, Role.Employee);
    const asEmployee = await t.app.inject({
      url: `/api/Registration/check-email?email=${admin.email}`,
      headers: bearer(account),
    });
    expect(asEmployee.statusCode).toBe(403);

    const a = admin;
    const yes = await t.app.inject({
      url: `/api/registration/CHECK-EMAIL?email=${encodeURIComponent(account.email.toUpperCase())}`,
      headers: bearer(a),
    });
    expect(yes.statusCode).toBe(200);
    expect(yes.json()).toBe(true);
    const no = await t.app.inject({
      url: '/api/Registration/check-email?email=nobody@example.com',
      headers: bearer(a),
    });
    expect(no.json()).toBe(false);
  });

  it('find a taken contact and Aadhaar, compared through the keyed hash', async () => {
    const a = admin;
    const body = buildRegistration();
    await register(body, bearer(a));
    const contact = await t.app.inject({
      url: `/api/Registration/check-contact?contact=${body.contact}`,
      headers: bearer(a),
    });
    expect(contact.json()).toBe(true);
    const aadhaar = await t.app.inject({
      url: `/api/Registration/check-aadhar?aadharno=${body.adharNo}`,
      headers: bearer(a),
    });
    expect(aadhaar.json()).toBe(true);
    const other = await t.app.inject({
      url: `/api/Registration/check-aadhar?aadharno=${buildRegistration().adharNo}`,
      headers: bearer(a),
    });
    expect(other.json()).toBe(false);
    const count = await sql<{
      n: number;
    }>`select count(*) as n from users where aadhaar_enc like ${`%${body.adharNo}%`}`.execute(t.app.deps.db);
    expect(Number(count.rows[0]!.n)).toBe(0);
  });
});
