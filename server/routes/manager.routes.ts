import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { activityAnswerSchema, activityQuerySchema } from '../../contract/manager';
import { Role } from '../../contract/roles';

// /api/Manager/*: the Manager dashboard (issue 17), read-only, for Managers and Admins.
const managerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { manager } = app.deps;
  app.get(
    '/activity',
    {
      config: { access: [Role.Manager, Role.Admin] },
      schema: { querystring: activityQuerySchema, response: { 200: activityAnswerSchema } },
    },
    (request) => manager.activity(request.query),
  );
};
export default managerRoutes;
