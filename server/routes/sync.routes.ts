import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Role } from '../../contract/roles';
import { IDEMPOTENCY_KEY_HEADER } from '../../contract/sync';
import {
  syncBatchAnswerSchema,
  syncBatchSchema,
  syncChangesQuerySchema,
  syncOptionListsSchema,
} from '../../contract/sync-batch.schema';
import { type Dispatch, runBatch } from '../services/sync/sync-batch.service';
import { leadAnswer } from './lead-answer.schema';

const changesAnswer = z.object({
  leads: z.array(leadAnswer),
  removed: z.array(z.number().int()),
  options: syncOptionListsSchema.optional(),
  full: z.boolean(),
  cursor: z.string(),
});

function parsed(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// /api/sync: the offline board's batched outbox and delta refresh (issue 18).
const syncRoutes: FastifyPluginAsyncZod = async (app) => {
  const { syncChanges } = app.deps;

  app.post(
    '/',
    {
      // The ops' own calls decide who may do what, op by op (a Manager's ops answer 403 each).
      config: { access: [Role.Admin, Role.Employee] },
      schema: { body: syncBatchSchema, response: { 200: syncBatchAnswerSchema } },
    },
    async (request) => {
      // Each op runs as its single call inside this process (app.inject: no socket), with the
      // caller's token and the op's key: the same auth, validation, answer and idempotency record
      // as if the outbox had sent it alone.
      const dispatch: Dispatch = async (key, call) => {
        const answer = await app.inject({
          method: call.method,
          url: call.url,
          payload: call.body,
          headers: {
            authorization: request.headers.authorization ?? '',
            [IDEMPOTENCY_KEY_HEADER]: key,
            'content-type': 'application/json',
          },
        });
        return { status: answer.statusCode, body: parsed(answer.body) };
      };
      return { results: await runBatch(request.body.ops, dispatch) };
    },
  );

  app.get(
    '/changes',
    {
      config: { access: [Role.Employee] },
      schema: { querystring: syncChangesQuerySchema, response: { 200: changesAnswer } },
    },
    (request) => syncChanges.since(request.user!.userId, request.query.since),
  );
};
export default syncRoutes;
