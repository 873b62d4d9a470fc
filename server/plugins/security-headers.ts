import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers (CSP, HSTS, nosniff, …) on every answer. @fastify/helmet builds
 * Helmet's middleware again for each request, parsing the CSP directives every time: about a
 * tenth of the CPU of a cached list call (issue 7). Built once here; the headers are the same.
 */
export default fp(
  async (app: FastifyInstance, options: HelmetOptions) => {
    const setHeaders = helmet(options);
    app.addHook('onRequest', (request, reply, done) =>
      setHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
    );
  },
  { name: 'security-headers' },
);
