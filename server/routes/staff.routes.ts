import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Role } from '../../contract/roles';
import {
  reassignAnswerSchema,
  reassignSchema,
  staffChangeAnswerSchema,
  staffMemberSchema,
  staffParamsSchema,
} from '../../contract/staff';

const readers = { access: [Role.Admin, Role.Manager] } as const;
const adminOnly = { access: [Role.Admin] } as const;

// /api/Admin/staff and /api/Admin/reassign: the Employees screen (issue 17). A Manager may read.
const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const { staff } = app.deps;

  app.get('/staff', { config: readers, schema: { response: { 200: z.array(staffMemberSchema) } } }, () =>
    staff.list(),
  );

  app.post(
    '/staff/:registrationId/deactivate',
    { config: adminOnly, schema: { params: staffParamsSchema, response: { 200: staffChangeAnswerSchema } } },
    (request) => staff.deactivate(request.params.registrationId),
  );

  app.post(
    '/staff/:registrationId/reactivate',
    { config: adminOnly, schema: { params: staffParamsSchema, response: { 200: staffChangeAnswerSchema } } },
    (request) => staff.reactivate(request.params.registrationId),
  );

  app.post(
    '/reassign',
    {
      config: adminOnly,
      // Up to 200,000 lead ids, as /assign takes.
      bodyLimit: 4 * 1024 * 1024,
      schema: { body: reassignSchema, response: { 200: reassignAnswerSchema } },
    },
    (request) => staff.reassign(request.user!, request.body),
  );
};
export default staffRoutes;
