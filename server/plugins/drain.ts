import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { problem } from '../errors';

export const drainMessage = 'The server is restarting. Try again in a moment.';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Stops taking new work: from now on every request is answered 503, and the promise
     * resolves true once the requests already in flight have all finished (false at the deadline).
     */
    drain(timeoutMs: number): Promise<boolean>;
  }
}

/**
 * Graceful shutdown (issue 6): on SIGTERM the process keeps listening while the requests in
 * flight finish, so a new request gets a 503 problem JSON that a client or load balancer
 * retries elsewhere, instead of a reset connection or half-done work.
 */
export default fp(async (app: FastifyInstance) => {
  let draining = false;
  let inFlight = 0;
  let onIdle: (() => void) | null = null;

  // A callback hook (no promise per request); answering without calling done() ends the request.
  app.addHook('onRequest', (_request, reply, done) => {
    if (draining) {
      reply
        .status(503)
        .header('connection', 'close')
        .header('retry-after', '5')
        .type('application/problem+json')
        .send(problem(503, drainMessage));
      return;
    }
    inFlight += 1;
    // 'close' fires for every response, finished or aborted by the client.
    reply.raw.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0) onIdle?.();
    });
    done();
  });

  app.decorate('drain', (timeoutMs: number) => {
    draining = true;
    if (inFlight === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      onIdle = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  });
});
