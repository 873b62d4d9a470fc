import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../errors';

/** No LeadNest payload nests past a handful of levels; 64 leaves room and stops a stack blow-up. */
export const MAX_JSON_DEPTH = 64;
export const tooDeepMessage = `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`;

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body's bytes as they came (the Idempotency-Key fingerprint is taken over them). */
    rawBody: Buffer | null;
  }
}

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True when brackets outside strings nest deeper than `max`; one pass, no parse, no recursion. */
export function nestsDeeperThan(body: Buffer, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/**
 * JSON bodies (issue 16, finding 7): refused with a 400 before any hook or handler when they nest
 * past MAX_JSON_DEPTH (10,000 levels used to overflow the stack in the idempotency fingerprint and
 * answer 500), and kept as bytes for that fingerprint. Parsing itself stays Fastify's own, with
 * its prototype-poisoning checks.
 */
export default fp(async (app: FastifyInstance) => {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.decorateRequest('rawBody', null);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    (request: FastifyRequest, body: Buffer, done: (error: Error | null, body?: unknown) => void) => {
      if (nestsDeeperThan(body, MAX_JSON_DEPTH)) return done(badRequest(tooDeepMessage));
      request.rawBody = body;
      parse(request, body.toString('utf8'), done);
    },
  );
});
