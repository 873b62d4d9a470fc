import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import helmet from 'helmet';
import { afterAll, describe, expect, it } from 'vitest';
import securityHeaders from '../../../server/plugins/security-headers';

// The plugin runs Helmet once and sets the headers it produced on every answer
// (server/plugins/security-headers.ts). Here Helmet itself, as middleware on a plain Node
// server, answers beside it: the two must send the same security headers.

const options = {
  contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } },
  crossOriginEmbedderPolicy: false,
};

const servers: { close(): unknown }[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** Headers of an answer, without those every HTTP answer has. */
async function headersOf(url: string): Promise<Record<string, string>> {
  const res = await fetch(url);
  await res.arrayBuffer();
  const skip = new Set([
    'date',
    'connection',
    'keep-alive',
    'content-length',
    'content-type',
    'transfer-encoding',
  ]);
  return Object.fromEntries([...res.headers].filter(([name]) => !skip.has(name)));
}

describe('security headers', () => {
  it('are the headers Helmet sets, on answers, errors and unknown paths alike', async () => {
    const middleware = helmet(options);
    const plain = http.createServer((req, res) =>
      middleware(req, res, () => {
        res.statusCode = 200;
        res.end('ok');
      }),
    );
    servers.push(plain);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const expected = await headersOf(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/`);
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(Object.keys(expected).length).toBeGreaterThan(8);

    const app = Fastify();
    servers.push(app);
    await app.register(securityHeaders, options);
    app.get('/ok', () => 'ok');
    app.get('/fails', () => {
      throw new Error('boom');
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    for (const path of ['/ok', '/fails', '/nothing-here']) {
      expect(await headersOf(`${base}${path}`), path).toEqual(expected);
    }
  });
});
