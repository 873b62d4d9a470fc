import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { messages } from '../../../contract/messages';
import { ConfigError, loadConfig } from '../../../server/config';
import { createTestApp, type TestApp } from '../../helpers/test-server';

// Issue 16, finding 4: TRUST_PROXY=true trusted every hop, so a client chose its own address with
// X-Forwarded-For and walked past every per-address limit. One trusted hop (the reverse proxy in
// front, here the loopback peer) now means: the client is the entry that proxy appended, the
// right-most; whatever the client wrote to the left of it is ignored.

const MAX_PER_IP = 3;
const CLIENT = '203.0.113.7';
const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((t) => t.close())));

const forged = () => `198.51.100.${crypto.randomInt(1, 255)}`;
const ghost = () => `ghost-${crypto.randomBytes(4).toString('hex')}@example.com`;

describe.each([
  ['1', 'a hop count'],
  ['true', 'true, meaning one hop'],
  ['127.0.0.1,10.0.0.0/8', 'a list of proxy addresses and ranges'],
])('TRUST_PROXY=%s (%s)', (trustProxy) => {
  it('ignores a forged left-most X-Forwarded-For entry: the per-address limit still hits', async () => {
    const t = await createTestApp({ TRUST_PROXY: trustProxy, LOGIN_MAX_PER_IP: String(MAX_PER_IP) });
    apps.push(t);
    const login = (xff: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/Registration/login',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': xff },
        payload: { email: ghost(), password: 'Wrong@1234' },
      });
    for (let i = 0; i < MAX_PER_IP; i++) expect((await login(`${forged()}, ${CLIENT}`)).statusCode).toBe(401);
    const refused = await login(`${forged()}, ${CLIENT}`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(messages.login.tooManyAttempts);
    // Another client, as the proxy reports it, is not refused.
    expect((await login(`${CLIENT}, 203.0.113.8`)).statusCode).toBe(401);
  });
});

describe('TRUST_PROXY values', () => {
  it('reads false, hop counts, true and address lists, and refuses anything else', () => {
    const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 127.0.0.1, ::1')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(loadConfig({}).trustProxy).toBe(false);
    for (const bad of ['everyone', '10.0.0.0/33', '10.0.0.1,', '300.1.1.1']) {
      expect(() => trust(bad), bad).toThrow(ConfigError);
    }
  });
});
