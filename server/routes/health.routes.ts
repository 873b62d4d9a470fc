import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ping } from '../db/database';
import { HttpError } from '../errors';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { config: { access: 'public' }, schema: { response: { 200: z.object({ ok: z.literal(true) }) } } },
    async () => {
      if (!(await ping(app.deps.db))) throw new HttpError(503, 'The database is not reachable.');
      return { ok: true as const };
    },
  );
  app.get('/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
};
export default healthRoutes;
