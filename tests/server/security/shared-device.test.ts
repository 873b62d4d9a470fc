import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../contract/roles';
import {
  type Account,
  bearer,
  createAccount,
  createFirstAdmin,
  createTestApp,
  type TestApp,
} from '../../helpers/test-server';

// Issue 16, finding 6 (the server's half; tests/e2e/shared-device.test.ts drives the browser):
// answers were `private, no-cache`, which a browser keeps on disk keyed by address alone, so the
// next user of a shared phone read the last one's leads with no token at all; and sign-out only
// forgot the token on the device.

let t: TestApp;
let admin: Account;
let employee: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createFirstAdmin(t.app);
  employee = await createAccount(t.app, admin, Role.Employee);
});
afterAll(() => t.close());

const login = async (account: Account) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/Registration/login',
    payload: { email: account.email, password: account.password },
  });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
};

describe('Cache-Control on /api answers', () => {
  it('is no-store on reads, writes, refusals and unknown paths', async () => {
    const answers = await Promise.all([
      t.app.inject({ url: '/api/Admin/leads', headers: bearer(admin) }),
      t.app.inject({ url: '/api/Search/leads?q=a', headers: bearer(employee) }),
      t.app.inject({ url: '/api/LeadStatus/call-statuses', headers: bearer(employee) }),
      t.app.inject({ url: '/api/Admin/stats', headers: bearer(admin) }),
      t.app.inject({ url: '/api/Admin/stats' }),
      t.app.inject({ url: '/api/Admin/stats', headers: bearer(employee) }),
      t.app.inject({ url: '/api/no-such-call', headers: bearer(admin) }),
      t.app.inject({ method: 'POST', url: '/api/Admin/leads', headers: bearer(admin), payload: {} }),
      t.app.inject({
        method: 'POST',
        url: '/api/Admin/leads',
        headers: bearer(admin),
        payload: { name: 'Stored Nowhere', phoneNo: '9812345670' },
      }),
      t.app.inject({ url: '/api/health' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 401, 403, 404, 400, 201, 200]);
    for (const answer of answers) {
      expect(answer.headers['cache-control'], `${answer.statusCode} ${answer.body.slice(0, 80)}`).toBe(
        'no-store',
      );
    }
  });

  it('keeps ETag and 304 for a client that keeps its own copy', async () => {
    for (const url of ['/api/Admin/leads', '/api/Admin/stats']) {
      const first = await t.app.inject({ url, headers: bearer(admin) });
      expect(first.headers.etag).toBeTruthy();
      const again = await t.app.inject({
        url,
        headers: { ...bearer(admin), 'if-none-match': String(first.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers['cache-control']).toBe('no-store');
    }
  });
});

describe('POST /api/Registration/logout', () => {
  it('ends the token on the server; signing in again gives a working one', async () => {
    const token = await login(employee);
    const auth = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ url: '/api/LeadStatus/call-statuses', headers: auth })).statusCode).toBe(
      200,
    );

    const out = await t.app.inject({ method: 'POST', url: '/api/Registration/logout', headers: auth });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');

    const after = await t.app.inject({ url: '/api/LeadStatus/call-statuses', headers: auth });
    expect(after.statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/Registration/logout', headers: auth })).statusCode,
    ).toBe(401);

    const fresh = await login(employee);
    const back = await t.app.inject({
      url: '/api/LeadStatus/call-statuses',
      headers: { authorization: `Bearer ${fresh}` },
    });
    expect(back.statusCode).toBe(200);
  });

  it('needs a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/Registration/logout' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });
});
