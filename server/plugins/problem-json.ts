import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isBusy } from '../db/database';
import { HttpError, problem } from '../errors';

export const busyMessage = 'The database is busy. Try again in a moment.';
export const outOfRangeMessage = 'A number in the request is out of range.';
export const badCharacterMessage = 'The request contains a character that cannot be stored.';
const PG_NUMBER_OUT_OF_RANGE = '22003';
const PG_BAD_CHARACTER = '22021';

/**
 * Errors Fastify meets before routing — a path that does not decode, a path parameter past
 * maxParamLength (414) — answered as problem JSON too (Fastify's own are plain JSON).
 */
export function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
  const message =
    status >= 500
      ? 'Something went wrong on our side.'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'The address is too long.'
        : 'The address is not valid.';
  return reply.status(status).type('application/problem+json').send(problem(status, message));
}

// Every error leaves as problem JSON with `title` and `message` (DESIGN.md §2); a 500 never
// carries a stack or an internal message.
export default fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      const { headers, ...extra } = error.extra;
      if (headers) reply.headers(headers);
      return reply
        .status(error.status)
        .type('application/problem+json')
        .send(problem(error.status, error.message, extra));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const v of error.validation) {
        const key =
          String(v.instancePath ?? '')
            .replace(/^\//, '')
            .split('/')[0] || 'body';
        errors[key] = [...(errors[key] ?? []), v.message ?? 'Invalid value'];
      }
      const first = Object.values(errors)[0]?.[0] ?? 'The request is not valid.';
      return reply
        .status(400)
        .type('application/problem+json')
        .send(problem(400, first, { title: 'One or more validation errors occurred.', errors }));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply
        .status(500)
        .type('application/problem+json')
        .send(problem(500, 'Something went wrong on our side.'));
    }
    const pgCode = (error as { code?: unknown }).code;
    if (pgCode === PG_NUMBER_OUT_OF_RANGE || pgCode === PG_BAD_CHARACTER) {
      // Input PostgreSQL refuses that the schemas let through (found by fuzzing): an id past its
      // integer columns (2^31 - 1), or a NUL byte in text.
      const message = pgCode === PG_BAD_CHARACTER ? badCharacterMessage : outOfRangeMessage;
      return reply.status(400).type('application/problem+json').send(problem(400, message));
    }
    if (isBusy(error)) {
      // Another process held SQLite's write lock past busy_timeout (a long import on a second
      // node): nothing was written, so a retry is safe. The outbox retries 503 with backoff.
      request.log.warn({ err: error }, 'database busy');
      return reply
        .status(503)
        .header('retry-after', '2')
        .type('application/problem+json')
        .send(problem(503, busyMessage));
    }
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply
        .status(status)
        .type('application/problem+json')
        .send(problem(status, 'Something went wrong on our side.'));
    }
    // Fastify's own 4xx (bad JSON, body too large, wrong content type, ...): its message is safe to show.
    const message =
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'The request body is too large.'
        : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'This content type is not supported here.'
          : error.message;
    return reply.status(status).type('application/problem+json').send(problem(status, message));
  });
});
