import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const signedIn = { access: 'signed-in' } as const;

// The four option lists of spec §7, each in the field names of spec §3.
const leadStatusOptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { options } = app.deps;

  app.get(
    '/call-statuses',
    {
      config: signedIn,
      schema: { response: { 200: z.array(z.object({ callStatusId: z.number(), callStat: z.string() })) } },
    },
    async () => (await options.list('call_statuses')).map((o) => ({ callStatusId: o.id, callStat: o.name })),
  );
  app.get(
    '/client-statuses',
    {
      config: signedIn,
      schema: {
        response: { 200: z.array(z.object({ clientStatusId: z.number(), clientStat: z.string() })) },
      },
    },
    async () =>
      (await options.list('client_statuses')).map((o) => ({ clientStatusId: o.id, clientStat: o.name })),
  );
  app.get(
    '/location-statuses',
    {
      config: signedIn,
      schema: { response: { 200: z.array(z.object({ locationId: z.number(), locationName: z.string() })) } },
    },
    async () => (await options.list('locations')).map((o) => ({ locationId: o.id, locationName: o.name })),
  );
  app.get(
    '/Configuration-statuses',
    {
      config: signedIn,
      schema: {
        response: { 200: z.array(z.object({ configurationId: z.number(), configurationType: z.string() })) },
      },
    },
    async () =>
      (await options.list('configurations')).map((o) => ({
        configurationId: o.id,
        configurationType: o.name,
      })),
  );
};
export default leadStatusOptionRoutes;
