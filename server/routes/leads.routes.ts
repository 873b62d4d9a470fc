import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { leadTimelineBaseSchema } from '../../contract/lead-timeline';
import { leadUpdateSchema } from '../../contract/leads-list';
import { Role } from '../../contract/roles';
import { leadAnswer } from './lead-answer.schema';

const params = z.object({ leadID: z.coerce.number().int().positive() });
// DESIGN.md §3: editing and deleting leads is the Admin's; a Manager only reads.
const adminOnly = { access: [Role.Admin] } as const;
const timelineAnswer = leadTimelineBaseSchema.extend({ lead: leadAnswer });

// /api/Leads/{leadID}: edit and soft-delete from the Leads List (spec §7), and the lead's timeline.
const leadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { leadsList, leadTimeline } = app.deps;

  // A lead's whole story (issue 17): every role; an employee only for a lead they hold (else 404).
  app.get(
    '/:leadID/timeline',
    {
      config: { access: [Role.Admin, Role.Manager, Role.Employee] },
      schema: { params, response: { 200: timelineAnswer } },
    },
    (request) => leadTimeline.forLead(request.user!, request.params.leadID),
  );

  app.put(
    '/:leadID',
    { config: adminOnly, schema: { params, body: leadUpdateSchema, response: { 200: leadAnswer } } },
    (request) => leadsList.update(request.params.leadID, request.body, request.user!),
  );

  app.delete('/:leadID', { config: adminOnly, schema: { params } }, async (request, reply) => {
    await leadsList.remove(request.params.leadID);
    return reply.status(204).send();
  });
};
export default leadsRoutes;
