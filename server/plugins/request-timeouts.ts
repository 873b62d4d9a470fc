import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';

/** The slowest upload link the total limit still lets a maximum-size spreadsheet through (bytes/s). */
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 32 * 1024;

/**
 * Fastify's timeouts (issue 16, finding 2; docs/security.md). REQUEST_TIMEOUT_SECONDS is how long
 * a connection may stay silent while it sends a request: a client that sent its headers and
 * stalled the body is cut then, while a slow but steady upload never is. The whole request must
 * also arrive within a total long enough for MAX_UPLOAD_MB at 32 KB/s (a poor phone link), so
 * a client that dribbles a byte now and then cannot hold a connection forever; the headers get
 * half the silence limit.
 */
export function serverTimeouts(config: Config) {
  const silenceMs = Math.round(config.requestTimeoutSeconds * 1000);
  const uploadMs = Math.ceil(config.maxUploadBytes / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000;
  const requestTimeout = Math.max(silenceMs, uploadMs);
  const headersTimeout = Math.max(500, Math.round(silenceMs / 2));
  return {
    connectionTimeout: silenceMs,
    requestTimeout,
    http: {
      requestTimeout,
      headersTimeout,
      // How often Node checks the two limits above (30 s by default, longer than a short limit).
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.round(headersTimeout / 2))),
    },
  };
}

/**
 * The silence limit is a socket timeout, which would also cut a request whose body has arrived
 * and whose handler simply runs long (an import of 100,000 rows): that one is kept.
 */
export default fp(async (app: FastifyInstance) => {
  const receiving = new WeakMap<Socket, IncomingMessage>();
  app.addHook('onRequest', (request, _reply, done) => {
    receiving.set(request.raw.socket, request.raw);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    receiving.delete(request.raw.socket);
    done();
  });
  app.server.on('timeout', (socket: Socket) => {
    const request = receiving.get(socket);
    if (request?.complete) return;
    socket.destroy();
  });
});
