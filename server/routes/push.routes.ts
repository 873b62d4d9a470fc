import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  pushPublicKeyAnswerSchema,
  pushSubscriptionAnswerSchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
} from '../../contract/follow-ups';

// Any signed-in user may enable reminders on a device; each subscription is the caller's own.
const signedIn = { access: 'signed-in' } as const;

// /api/push/*: Web Push for reminders (issue 15, contract/follow-ups.ts).
const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  const { pushSubscriptions } = app.deps;

  app.get(
    '/public-key',
    { config: signedIn, schema: { response: { 200: pushPublicKeyAnswerSchema } } },
    () => ({ publicKey: pushSubscriptions.publicKey }),
  );

  app.post(
    '/subscriptions',
    {
      config: signedIn,
      schema: { body: pushSubscriptionSchema, response: { 201: pushSubscriptionAnswerSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await pushSubscriptions.subscribe(request.user!, request.body)),
  );

  app.delete(
    '/subscriptions',
    { config: signedIn, schema: { body: pushUnsubscribeSchema } },
    async (request, reply) => {
      await pushSubscriptions.unsubscribe(request.user!, request.body.endpoint);
      return reply.status(204).send();
    },
  );
};
export default pushRoutes;
