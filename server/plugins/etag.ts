import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { addRouteHook, isApiRoute, routeAnswers } from './route-hooks';

const GET = new Set(['GET']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route tags its answers and answers If-None-Match itself (see `notModified`). */
    ownETag?: boolean;
  }
}

/**
 * Every /api answer (issue 16): no browser or proxy keeps a copy. With `private, no-cache` the
 * browser kept them on disk, keyed by address alone, so on a shared phone the next user (or no
 * user at all, with `cache: 'only-if-cached'`) could read the last one's leads. ETag and 304 still
 * work for a client that keeps its own copy and sends If-None-Match (src/lib/api-client.ts).
 */
export const NO_STORE = 'no-store';

/** A weak validator for a JSON answer: the same bytes answer the same tag. */
export function etagOf(payload: string | Buffer): string {
  return `W/"${crypto.createHash('sha1').update(payload).digest('base64url')}"`;
}

/** If-None-Match holds `*` or a comma-separated list of tags, compared weakly (RFC 9110 §13.1.2). */
function matches(ifNoneMatch: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/** Whether the client's copy, named by If-None-Match, is the answer tagged `etag`. */
export function notModified(request: FastifyRequest, etag: string): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  return ifNoneMatch !== undefined && matches(ifNoneMatch, etag);
}

/**
 * ETag / If-None-Match on GET /api answers (issue 7): a board or dashboard refresh whose list has
 * not changed costs a 304 with no body. The hook goes on each GET route under /api as it is
 * registered, before compression adds its own, so the tag is taken from the JSON itself and is
 * the same whatever encoding the client accepts. Routes with `config.ownETag` (the cached lists)
 * do this themselves and pay no onSend hook at all.
 */
export default fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    if (!route.url.toLowerCase().startsWith('/api')) return;
    // First, so even the auth check's 401 leaves with it.
    addRouteHook(route, 'onRequest', noStore, true);
    if (route.config?.ownETag || !isApiRoute(route) || !routeAnswers(route, GET)) return;
    addRouteHook(route, 'onSend', tagAnswer);
  });
});

function noStore(_request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.header('cache-control', NO_STORE);
  done();
}

// A callback hook: no promise and microtask on every answer.
function tagAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
): void {
  done(null, revalidate(request, reply, payload));
}

function revalidate(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (request.method !== 'GET' || reply.statusCode !== 200) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  const etag = etagOf(payload);
  reply.header('etag', etag);
  if (!notModified(request, etag)) return payload;
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  reply.removeHeader('content-encoding');
  return '';
}
