import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../../contract/messages';
import { Role } from '../../../contract/roles';
import { ApiError, api, configureApi, forgetAnswers } from '../../../src/lib/api-client';
import { saveSession, sessionEndedNotice } from '../../../src/lib/session';
import { type Account, createFirstAdmin, startTestServer, type TestServer } from '../../helpers/test-server';

let server: TestServer;
let admin: Account;
const onUnauthorized = vi.fn();

beforeAll(async () => {
  server = await startTestServer();
  admin = await createFirstAdmin(server.app);
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  onUnauthorized.mockClear();
  configureApi({ baseUrl: `${server.url}/api`, onUnauthorized });
});

const checkEmail = () => api.get('Registration/check-email', { searchParams: { email: admin.email } }).json();

describe('api client', () => {
  it('sends the stored token as a bearer token', async () => {
    saveSession({ token: admin.token, email: admin.email, roleId: Role.Admin });
    expect(await checkEmail()).toBe(true);
  });

  it('ends the session on a 401 to a request that carried a token', async () => {
    saveSession({ token: 'expired.or.forged', email: admin.email, roleId: Role.Admin });
    localStorage.setItem('somethingElse', 'x');
    const error = await checkEmail().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(localStorage.length).toBe(0);
    expect(sessionEndedNotice()).toBe(true);
  });

  it('leaves an anonymous 401 to the caller', async () => {
    const error = await checkEmail().catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(401);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('never treats a failed sign-in as an ended session, even with a stale token stored', async () => {
    saveSession({ token: 'stale', email: admin.email, roleId: Role.Admin });
    const error = await api
      .post('Registration/login', {
        json: { email: admin.email, password: 'Wrong@1234' },
        context: { anonymous: true },
      })
      .json()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).problem).toMatchObject({
      status: 401,
      message: messages.login.invalidCredentials,
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBe('stale');
  });

  it('carries the problem JSON of a failure', async () => {
    saveSession({ token: admin.token, email: admin.email, roleId: Role.Admin });
    const error = await api
      .post('Registration', {
        json: {
          email: admin.email,
          password: 'Secret@123',
          ConfirmPassword: 'Secret@123',
          contact: '9876543210',
          adharNo: '234567890124',
          roleId: 3,
        },
      })
      .json()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).problem).toMatchObject({
      status: 409,
      message: messages.registration.emailExists,
    });
  });
});

describe('answers kept in memory with their ETag (issue 16: the API says no-store)', () => {
  it('refreshes with If-None-Match and reads a 304 as the kept answer, until sign-out forgets it', async () => {
    saveSession({ token: admin.token, email: admin.email, roleId: Role.Admin });
    const real = globalThis.fetch;
    const seen: { ifNoneMatch: string | null; status: number }[] = [];
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      const response = await real(request);
      seen.push({ ifNoneMatch: request.headers.get('if-none-match'), status: response.status });
      return response;
    });
    try {
      const list = () => api.get('Admin/leads').json();
      const first = await list();
      // The copy is taken beside the read and lands just after it.
      await new Promise((r) => setTimeout(r, 20));
      expect(await list()).toEqual(first);
      expect(seen.map((s) => s.status)).toEqual([200, 304]);
      expect(seen[1]!.ifNoneMatch).toMatch(/^W\/"/);

      forgetAnswers();
      expect(await list()).toEqual(first);
      expect(seen[2]).toEqual({ ifNoneMatch: null, status: 200 });
    } finally {
      spy.mockRestore();
    }
  });
});
