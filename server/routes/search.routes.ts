import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { leadSearchQuerySchema, TOTAL_COUNT_HEADER } from '../../contract/leads-list';

const answer = z.array(
  z.object({ leadID: z.number().int(), name: z.string(), email: z.string(), contactNo: z.string() }),
);

// /api/Search/leads: the navbar search of spec §1; which leads it sees follows DESIGN.md §3.
const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  const { leadsList } = app.deps;

  app.get(
    '/leads',
    {
      config: { access: 'signed-in' },
      schema: { querystring: leadSearchQuerySchema, response: { 200: answer } },
    },
    async (request, reply) => {
      const { items, total } = await leadsList.search(request.user!, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return items;
    },
  );
};
export default searchRoutes;
