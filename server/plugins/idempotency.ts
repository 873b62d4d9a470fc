import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_TTL_HOURS,
  IDEMPOTENT_REPLAYED_HEADER,
  syncMessages,
} from '../../contract/sync';
import { badRequest, HttpError } from '../errors';
import type { IdempotencyClaim } from '../repositories/idempotency.repository';
import { addRouteHook, isApiRoute, routeAnswers } from './route-hooks';

const TTL_MS = IDEMPOTENCY_TTL_HOURS * 3600_000;
// A row still without an answer after this long belongs to a node that died mid-request.
const ABANDONED_MS = 60_000;
// A concurrent duplicate waits this long for the first request's answer before a 409.
const WAIT_MS = 3_000;
const POLL_MS = 50;
const SWEEP_EVERY_MS = 10 * 60_000;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: IdempotencyClaim | null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Over the body's bytes as sent (issue 16): re-serialising the parsed body recursed once per
 * nesting level. The outbox sends JSON.stringify of its row, so these bytes are what the old
 * fingerprint hashed and keys recorded before the change still match.
 */
function bodyHash(method: string, path: string, request: FastifyRequest): string {
  const hash = crypto.createHash('sha256').update(`${method}\n${path}\n`);
  if (request.rawBody) return hash.update(request.rawBody).digest('hex');
  // No JSON body: none at all, or text/plain (a string, so no recursion).
  const text = typeof request.body === 'string' ? request.body : null;
  return hash.update(JSON.stringify(text)).digest('hex');
}

/** Paths are case-insensitive (DESIGN.md §2), so /api/leadstatus and /api/LeadStatus are one call. */
function normalisedPath(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url.toLowerCase() : `${url.slice(0, q).toLowerCase()}${url.slice(q)}`;
}

function replay(reply: FastifyReply, status: number, body: string) {
  return reply
    .status(status)
    .header(IDEMPOTENT_REPLAYED_HEADER, 'true')
    .type(status >= 400 ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8')
    .send(body);
}

/**
 * Idempotency-Key on writes (DESIGN.md §5): the offline outbox sends each row's id as the key, so
 * a resend after a lost answer gets the first answer instead of a second note or lead. Records
 * live in the database, so they hold across restarts and across several API nodes.
 */
export default fp(async (app: FastifyInstance) => {
  const store = app.deps.idempotency;
  let lastSweep = 0;

  app.decorateRequest('idempotencyClaim', null);

  // The hooks go on the API's write routes alone, as each is registered: reads never carry a
  // key, and every hook on them cost each cached list call its run (issue 7).
  app.addHook('onRoute', (route) => {
    if (!isApiRoute(route) || !routeAnswers(route, WRITE_METHODS)) return;
    addRouteHook(route, 'preValidation', claimHook);
    // Before compression's own onSend (added to the route earlier): the answer is kept as JSON.
    addRouteHook(route, 'onSend', recordHook, true);
    addRouteHook(route, 'onResponse', releaseHook);
  });

  // preValidation: after auth (onRequest) and body parsing, before the schema check, so even a
  // 400 for a malformed body is stored and replayed like any other answer.
  // Callback hooks with a synchronous way out: a call without a key pays no promise for them.
  function claimHook(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
    if (request.headers['idempotency-key'] === undefined) return done();
    claimOrReplay(request, reply).then(() => done(), done);
  }

  async function claimOrReplay(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = request.headers['idempotency-key'];
    if (key === undefined || !request.user || !WRITE_METHODS.has(request.method)) return;
    if (!request.url.toLowerCase().startsWith('/api/')) return;
    // A multipart upload is read as a stream by its handler: there is no body here to fingerprint.
    if (
      String(request.headers['content-type'] ?? '')
        .toLowerCase()
        .startsWith('multipart/')
    )
      return;
    if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key))
      throw badRequest(syncMessages.keyInvalid);

    const now = Date.now();
    if (now - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = now;
      await store.removeOlderThan(new Date(now - TTL_MS).toISOString());
    }

    const path = normalisedPath(request.url);
    const claim: IdempotencyClaim = {
      userId: request.user.userId,
      key,
      method: request.method,
      path,
      bodyHash: bodyHash(request.method, path, request),
    };

    const deadline = now + WAIT_MS;
    for (;;) {
      if (await store.claim(claim, new Date().toISOString())) {
        request.idempotencyClaim = claim;
        return;
      }
      const existing = await store.find(claim.userId, key);
      if (!existing) continue; // released or expired between our insert and read: try again
      const age = Date.now() - Date.parse(existing.created_at);
      if (age > TTL_MS || (existing.status_code === null && age > ABANDONED_MS)) {
        await store.removeIfCreatedAt(claim.userId, key, existing.created_at);
        continue;
      }
      if (existing.body_hash !== claim.bodyHash) throw new HttpError(422, syncMessages.keyReused);
      if (existing.status_code !== null)
        return replay(reply, existing.status_code, existing.response_body ?? '');
      // The first request with this key is still running (a double tap, or two tabs): wait for it.
      if (Date.now() >= deadline) throw new HttpError(409, syncMessages.keyInFlight);
      await sleep(POLL_MS);
    }
  }

  function recordHook(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: Error | null, payload?: unknown) => void,
  ) {
    const claim = request.idempotencyClaim;
    if (!claim) return done(null, payload);
    request.idempotencyClaim = null;
    record(claim, reply.statusCode, payload).then(() => done(null, payload), done);
  }

  async function record(claim: IdempotencyClaim, status: number, payload: unknown): Promise<void> {
    // A 5xx or a 429 means the work did not run (or did not finish): free the key so a retry
    // runs it. Every other answer is final and is what a resend gets back.
    const body =
      payload == null
        ? ''
        : typeof payload === 'string'
          ? payload
          : Buffer.isBuffer(payload)
            ? payload.toString('utf8')
            : null;
    if (status >= 500 || status === 429 || body === null) {
      await store.release(claim.userId, claim.key);
    } else {
      await store.complete(claim.userId, claim.key, status, body);
    }
  }

  // A request that ends without a response (client gone, handler crash before onSend) must not
  // leave its key claimed until it is treated as abandoned.
  function releaseHook(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
    const claim = request.idempotencyClaim;
    if (!claim) return done();
    store.release(claim.userId, claim.key).then(() => done(), done);
  }
});
