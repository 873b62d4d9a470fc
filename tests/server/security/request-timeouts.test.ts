import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, createFirstAdmin, startTestServer, type TestServer } from '../../helpers/test-server';
import { multipart, phone, type Row } from '../routes/admin-upload-support';

// Issue 16, finding 2: a client that sent its headers and stalled the body held the connection
// for minutes. REQUEST_TIMEOUT_SECONDS is how long a request may stay silent; a real socket,
// because inject has no connection to time out. One second here, so the test stays short.

const SILENCE_SECONDS = 1;
let server: TestServer;
let admin: Account;

beforeAll(async () => {
  server = await startTestServer({ REQUEST_TIMEOUT_SECONDS: String(SILENCE_SECONDS) });
  admin = await createFirstAdmin(server.app);
});
afterAll(() => server.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function connect(): Promise<net.Socket> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection, and when that happened. */
function collect(socket: net.Socket) {
  let text = '';
  let closedAt: number | null = null;
  socket.on('data', (d: Buffer) => {
    text += d.toString('latin1');
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closedAt = Date.now();
      resolve();
    }),
  );
  return { text: () => text, closedAt: () => closedAt, closed };
}

function head(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${path} HTTP/1.1\r\nHost: leadnest.test\r\n${lines.join('\r\n')}\r\n\r\n`;
}

describe('REQUEST_TIMEOUT_SECONDS', () => {
  it('closes a connection that sent its headers and then stalled the body', async () => {
    const socket = await connect();
    const seen = collect(socket);
    const body = JSON.stringify({ name: 'Stalled', phoneNo: '9876543210' });
    const started = Date.now();
    socket.write(
      head('POST', '/api/Admin/leads', {
        Authorization: `Bearer ${admin.token}`,
        'Content-Type': 'application/json',
        'Content-Length': body.length,
      }) + body.slice(0, 10),
    );
    // Five times the limit: without one, the connection would stay open for minutes.
    await Promise.race([seen.closed, sleep(SILENCE_SECONDS * 5000)]);
    socket.destroy();
    expect(seen.closedAt(), 'the server closed the stalled connection').not.toBeNull();
    expect(seen.closedAt()! - started).toBeLessThan(SILENCE_SECONDS * 5000);
    // Nothing was added from the half body, and the server answers the next caller.
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
  });

  it('closes a connection that sends nothing at all', async () => {
    const socket = await connect();
    const seen = collect(socket);
    await Promise.race([seen.closed, sleep(SILENCE_SECONDS * 5000)]);
    socket.destroy();
    expect(seen.closedAt(), 'the server closed the silent connection').not.toBeNull();
  });

  it('lets a slow but steady upload of the maximum size through, and answers it', async () => {
    // A real workbook just under MAX_UPLOAD_MB (20 MB by default): 660 leads with a long remark
    // each, stored without compression so its size is what a phone has to send.
    const rows: Row[] = [['Name', 'Phone', 'Remarks']];
    for (let i = 0; i < 660; i++)
      rows.push([`Slow ${i}`, phone(), crypto.randomBytes(23_000).toString('base64url')]);
    const file = workbookOfSize(rows);
    expect(file.length).toBeGreaterThan(19 * 1024 * 1024);
    expect(file.length).toBeLessThan(20 * 1024 * 1024);
    const { payload, contentType } = multipart('slow.xlsx', file);

    const request = http.request(`${server.url}/api/Admin/upload-leads?autoAssign=false`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${admin.token}`,
        'Content-Type': contentType,
        'Content-Length': payload.length,
      },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.once('error', reject);
      request.once('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
    });
    // 64 KB every 20 ms: about 3 MB/s at best, so the upload takes several times the limit.
    const chunk = 64 * 1024;
    const started = Date.now();
    for (let at = 0; at < payload.length; at += chunk) {
      if (!request.write(payload.subarray(at, at + chunk)))
        await new Promise<void>((resolve) => request.once('drain', resolve));
      await sleep(20);
    }
    request.end();
    expect(Date.now() - started).toBeGreaterThan(SILENCE_SECONDS * 3000);
    const { status, body } = await answer;
    expect(status, body.slice(0, 300)).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ totalRows: 660, inserted: 660 });
  }, 120_000);
});

/** The workbook stored, not deflated, so its bytes on the wire are its real size. */
function workbookOfSize(rows: Row[]): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows as unknown[][]), 'Leads');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: false }) as Buffer;
}
