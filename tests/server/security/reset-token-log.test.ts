import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetLinkIn, resetTokenOf, type SmtpSink, startSmtpSink } from '../../helpers/mail';
import {
  ADMIN,
  createStore,
  killLeftovers,
  type ServerProcess,
  type Store,
  startServerProcess,
} from '../faults/support/server-process';

// Issue 16, finding 1: at the default LOG_LEVEL=info, opening the mailed reset link logged
// "url":"/reset-password?token=…", and the token from the log reset the Admin's password. The real
// server process, its log captured as an operator would read it.

let sink: SmtpSink;
let store: Store;
let server: ServerProcess;

beforeAll(async () => {
  sink = await startSmtpSink();
  store = await createStore();
  server = await startServerProcess(store, { SMTP_URL: sink.url, LOG_LEVEL: 'info' });
}, 90_000);
afterAll(async () => {
  killLeftovers();
  await server?.exited;
  await store?.drop();
  await sink?.close();
});

/** Waits until the log shows the request to `path` answered (so its lines are all written). */
async function requestLogged(path: string): Promise<void> {
  await server.waitForLog(new RegExp(`"url":"${path.split('?')[0]}[^"]*".*\\n(.*\\n)*.*request completed`));
}

describe('the password-reset token', () => {
  it('is never written to the log, whether the link carries it after # or, as older links, after ?', async () => {
    const asked = await fetch(`${server.url}/api/Registration/forgotpassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email }),
    });
    expect(asked.status).toBe(200);
    const link = resetLinkIn((await sink.next()).raw);
    const token = resetTokenOf(link);
    expect(token.length).toBeGreaterThan(20);

    // What a browser sends for the mailed link: its path and query, never its fragment.
    await fetch(`${server.url}${link.pathname}${link.search}`);
    await requestLogged(link.pathname);
    // A link mailed before the change, with the token in the query.
    await fetch(`${server.url}/reset-password?token=${token}`);
    // And an API path carrying it in the query.
    await fetch(`${server.url}/api/Registration/check-email?token=${token}`);
    await requestLogged('/api/Registration/check-email');

    expect(server.output()).toContain('"url":"/reset-password');
    expect(server.output()).not.toContain(token);

    // It is the real secret: it resets the password.
    const reset = await fetch(`${server.url}/api/Registration/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'Fresh@Pass1', ConfirmPassword: 'Fresh@Pass1' }),
    });
    expect(reset.status).toBe(200);
    expect(server.output()).not.toContain(token);
  });
});
