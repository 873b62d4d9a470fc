import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers Helmet sets for these options. With no per-request directives (no nonces) they are
 * the same for every answer, so Helmet runs once here, against a stand-in response, instead of
 * its twelve middlewares running on every request: @fastify/helmet even rebuilt the middleware
 * per request, about a tenth of the CPU of a cached list call (issue 7).
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const stand = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  let failed: unknown;
  helmet(options)({} as never, stand, (error?: unknown) => {
    failed = error;
  });
  if (failed) throw failed;
  return headers;
}

/** Helmet's security headers (CSP, HSTS, nosniff, …) on every answer. */
export default fp(
  async (app: FastifyInstance, options: HelmetOptions) => {
    const headers = helmetHeaders(options);
    // A callback hook, not an async one: no promise and microtask on every request.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
