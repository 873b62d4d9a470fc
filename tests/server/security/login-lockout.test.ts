import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { resetLinkIn, resetTokenOf, type SmtpSink, startSmtpSink } from '../../helpers/mail';
import { type Account, createFirstAdmin, startTestServer, type TestServer } from '../../helpers/test-server';

// Issue 16, finding 3: ten wrong passwords for the Admin's email, from anywhere, kept the Admin
// out, right password and all. Failures now count per email and address: two real clients on
// loopback, one bound to 127.0.0.2 (the guesser), one to 127.0.0.1 (the owner).

const MAX_PER_EMAIL = 3;
const OWNER = '127.0.0.1';
const GUESSER = '127.0.0.2';
let sink: SmtpSink;
let server: TestServer;
let admin: Account;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startTestServer({
    SMTP_URL: sink.url,
    LOGIN_MAX_PER_EMAIL: String(MAX_PER_EMAIL),
    LOGIN_MAX_PER_IP: '1000',
  });
  admin = await createFirstAdmin(server.app);
});
afterAll(async () => {
  await server.close();
  await sink.close();
});

/** A POST from a client socket bound to `from`. */
function post(
  from: string,
  path: string,
  body: object,
): Promise<{ status: number; json: { message?: string; email?: string } }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(`${server.url}${path}`, {
      method: 'POST',
      localAddress: from,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    request.once('error', reject);
    request.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    request.end(payload);
  });
}

const login = (from: string, password: string) =>
  post(from, '/api/Registration/login', { email: admin.email, password });

describe('sign-in failures count per email and address', () => {
  it("refuses the guesser's address, even its right password, while the owner signs in from theirs", async () => {
    for (let i = 0; i < MAX_PER_EMAIL; i++) expect((await login(GUESSER, `Wrong@${i}234`)).status).toBe(401);
    const refused = await login(GUESSER, admin.password);
    expect(refused.status).toBe(429);
    expect(refused.json.message).toBe(messages.login.tooManyAttempts);

    const owner = await login(OWNER, admin.password);
    expect(owner.status).toBe(200);
    expect(owner.json.email).toBe(admin.email);
    // Still refused where the guessing came from.
    expect((await login(GUESSER, admin.password)).status).toBe(429);
  });

  it('clears the count for every address once the owner resets the password', async () => {
    expect((await login(GUESSER, admin.password)).status).toBe(429);
    sink.skipPending();
    expect((await post(OWNER, '/api/Registration/forgotpassword', { email: admin.email })).status).toBe(200);
    const token = resetTokenOf(resetLinkIn((await sink.next()).raw));
    const fresh = 'Fresh@Pass1';
    const reset = await post(OWNER, '/api/Registration/reset-password', {
      token,
      password: fresh,
      ConfirmPassword: fresh,
    });
    expect(reset.status).toBe(200);
    expect((await login(GUESSER, fresh)).status).toBe(200);
  });
});
