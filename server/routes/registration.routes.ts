import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginSchema, registrationSchema } from '../../contract/auth';
import { leadListQuerySchema, TOTAL_COUNT_HEADER } from '../../contract/leads-list';
import { Role } from '../../contract/roles';

const loginAnswer = z.object({
  token: z.string(),
  email: z.string(),
  roleId: z.number().int(),
  message: z.string(),
});
const registrationAnswer = z.object({
  registrationId: z.number().int(),
  email: z.string(),
  roleId: z.number().int(),
  message: z.string(),
});
const adminOnly = { access: [Role.Admin] } as const;
const leadListAnswer = z.array(
  z.object({ leadID: z.number().int(), name: z.string(), email: z.string(), contactNo: z.string() }),
);

const registrationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, registration, leadsList } = app.deps;

  // The Leads List's source (spec §7 GET Registration); a Manager may read it (DESIGN.md §3).
  app.get(
    '/',
    {
      config: { access: [Role.Admin, Role.Manager] },
      schema: { querystring: leadListQuerySchema, response: { 200: leadListAnswer } },
    },
    async (request, reply) => {
      const { items, total } = await leadsList.list(request.query);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return items;
    },
  );

  app.post(
    '/login',
    { config: { access: 'public' }, schema: { body: loginSchema, response: { 200: loginAnswer } } },
    (request) => auth.login(request.body, request.ip),
  );

  app.post('/logout', { config: { access: 'signed-in' } }, async (request, reply) => {
    await auth.logout(request.user!.userId);
    return reply.status(204).send();
  });

  app.post(
    '/',
    {
      config: { access: 'optional' },
      schema: { body: registrationSchema, response: { 201: registrationAnswer } },
    },
    async (request, reply) => reply.status(201).send(await registration.register(request.body, request.user)),
  );

  // Duplicate checks (spec §5) answer a bare boolean, true = already taken.
  app.get(
    '/check-email',
    {
      config: adminOnly,
      schema: { querystring: z.object({ email: z.string().max(254) }), response: { 200: z.boolean() } },
    },
    (request) => registration.emailExists(request.query.email),
  );
  app.get(
    '/check-contact',
    {
      config: adminOnly,
      schema: { querystring: z.object({ contact: z.string().max(32) }), response: { 200: z.boolean() } },
    },
    (request) => registration.contactExists(request.query.contact),
  );
  app.get(
    '/check-aadhar',
    {
      config: adminOnly,
      schema: { querystring: z.object({ aadharno: z.string().max(32) }), response: { 200: z.boolean() } },
    },
    (request) => registration.aadhaarExists(request.query.aadharno),
  );
};
export default registrationRoutes;
