import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { leadUpdateSchema } from '../../contract/leads-list';
import { Role } from '../../contract/roles';
import { leadAnswer } from './lead-answer.schema';

const params = z.object({ leadID: z.coerce.number().int().positive() });
// DESIGN.md §3: editing and deleting leads is the Admin's; a Manager only reads.
const adminOnly = { access: [Role.Admin] } as const;

// /api/Leads/{leadID}: edit and soft-delete from the Leads List (spec §7).
const leadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { leadsList } = app.deps;

  app.put(
    '/:leadID',
    { config: adminOnly, schema: { params, body: leadUpdateSchema, response: { 200: leadAnswer } } },
    (request) => leadsList.update(request.params.leadID, request.body),
  );

  app.delete('/:leadID', { config: adminOnly, schema: { params } }, async (request, reply) => {
    await leadsList.remove(request.params.leadID);
    return reply.status(204).send();
  });
};
export default leadsRoutes;
