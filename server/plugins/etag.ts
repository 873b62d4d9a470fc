import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

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

/**
 * ETag / If-None-Match on GET /api answers (issue 7): a board or dashboard refresh whose list has
 * not changed costs a 304 with no body. Registered before compression, so the tag is taken from
 * the JSON itself and is the same whatever encoding the client accepts. `no-cache` makes the
 * browser revalidate every time (a stale lead list is worse than a round trip); `private` keeps
 * per-user answers out of shared caches.
 */
export default fp(async (app: FastifyInstance) => {
  // A callback hook: no promise and microtask on every answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    done(null, revalidate(request, reply, payload));
  });
});

function revalidate(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (request.method !== 'GET' || reply.statusCode !== 200) return payload;
  if (!request.url.toLowerCase().startsWith('/api/')) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  // A cached answer comes with its tag (server/services/answer-cache.ts): no second hash.
  const given = reply.getHeader('etag');
  const etag = typeof given === 'string' ? given : etagOf(payload);
  reply.header('etag', etag);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-cache');
  const ifNoneMatch = request.headers['if-none-match'];
  if (!ifNoneMatch || !matches(ifNoneMatch, etag)) return payload;
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  reply.removeHeader('content-encoding');
  return '';
}
