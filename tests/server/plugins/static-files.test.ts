import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-server';

// The built PWA as the server sends it: a small dist/ made here, with the .br/.gz copies the
// build writes (scripts/precompress.mjs).

const script = `console.log(${JSON.stringify('LeadNest '.repeat(500))});`;
const html = '<!doctype html><html><body><div id="root"></div></body></html>';
let dist: string;
let t: TestApp;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'leadnest-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), html);
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), script);
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js.gz'), zlib.gzipSync(script));
  t = await createTestApp({ STATIC_DIR: dist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the built app', () => {
  it('sends the brotli copy of a script to a browser that takes brotli, cached for a year', async () => {
    const res = await t.app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends gzip, or the file itself, to browsers that take only those', async () => {
    const gz = await t.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await t.app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('answers a client-side route with index.html, revalidated on every load', async () => {
    const res = await t.app.inject({ url: '/employee' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(html);
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});
