import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the gateway does with the next request:
 * - pass: forward to the real server and return its answer;
 * - down: cut the connection without an answer (no network);
 * - lose-answer: forward, let the server do the work, then cut the connection before the answer
 *   reaches the phone (the case idempotent replay exists for);
 * - 503 / 429: answer that status without forwarding.
 */
export type GatewayStep = 'pass' | 'down' | 'lose-answer' | 503 | 429;

export interface SeenRequest {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  step: GatewayStep;
  /** The request body as text, once it has arrived (empty for GET). */
  body: string;
}

/** A gateway in front of the real API whose behaviour a test scripts request by request. */
export async function startFlakyGateway(target: string) {
  const targetUrl = new URL(target);
  const script: GatewayStep[] = [];
  let fallback: GatewayStep = 'pass';
  const seen: SeenRequest[] = [];

  function relay(req: IncomingMessage, res: ServerResponse, loseAnswer: boolean) {
    const upstream = forward(
      {
        host: targetUrl.hostname,
        port: targetUrl.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          if (loseAnswer) {
            res.socket?.destroy();
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(chunks));
        });
      },
    );
    upstream.on('error', () => res.socket?.destroy());
    req.pipe(upstream);
  }

  const server = createServer((req, res) => {
    const step = script.shift() ?? fallback;
    const entry: SeenRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      step,
      body: '',
    };
    seen.push(entry);
    // A second reader beside the pipe to the server: both see every chunk.
    req.on('data', (c: Buffer) => {
      entry.body += c.toString('utf8');
    });
    if (step === 'down') {
      req.socket.destroy();
      return;
    }
    if (step === 503 || step === 429) {
      req.resume();
      res.writeHead(step, { 'content-type': 'application/problem+json' });
      res.end(
        JSON.stringify({
          type: 'about:blank',
          title: 'Unavailable',
          status: step,
          message: 'Try again later.',
        }),
      );
      return;
    }
    relay(req, res, step === 'lose-answer');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    /** Requests seen so far (writes and reads). */
    seen,
    writes: () => seen.filter((s) => s.method !== 'GET'),
    /** The next requests get these steps in order, then the fallback. */
    next(...steps: GatewayStep[]) {
      script.push(...steps);
    },
    /** What every unscripted request gets (e.g. 'down' for "offline"). */
    always(step: GatewayStep) {
      fallback = step;
    },
    reset() {
      script.length = 0;
      fallback = 'pass';
      seen.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
