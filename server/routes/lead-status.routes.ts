import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  followUpCreatedSchema,
  followUpSchema,
  reminderListQuerySchema,
  reminderUpdateSchema,
} from '../../contract/follow-ups';
import {
  historyEntrySchema,
  noteRecordAnswerSchema,
  noteRecordSchema,
  reminderSchema,
  statusChangeAnswerSchema,
  statusChangeSchema,
} from '../../contract/lead-status';
import { messages } from '../../contract/messages';
import { Role } from '../../contract/roles';

// Status changes, notes, reminders and history are for Admins and for Employees on their own
// leads (DESIGN.md §3); the services answer 404 for a lead that is not the caller's.
const fieldWork = { access: [Role.Admin, Role.Employee] } as const;
const leadParams = z.object({ id: z.coerce.number().int().positive() });

// /api/LeadStatus/*: status changes, notes, reminders, history (spec §7, DESIGN.md §5–§6).
const leadStatusRoutes: FastifyPluginAsyncZod = async (app) => {
  const { leadStatusService, remindersService } = app.deps;

  app.put(
    '/leads/:id/status',
    {
      config: fieldWork,
      schema: { params: leadParams, body: statusChangeSchema, response: { 200: statusChangeAnswerSchema } },
    },
    (request) => leadStatusService.changeStatus(request.user!, request.params.id, request.body),
  );

  app.post(
    '/',
    { config: fieldWork, schema: { body: noteRecordSchema, response: { 201: noteRecordAnswerSchema } } },
    async (request, reply) =>
      reply.status(201).send(await leadStatusService.saveNote(request.user!, request.body)),
  );

  app.get(
    '/leads/:id/history',
    { config: fieldWork, schema: { params: leadParams, response: { 200: z.array(historyEntrySchema) } } },
    (request) => leadStatusService.history(request.user!, request.params.id),
  );

  app.post(
    '/add-reminder',
    { config: fieldWork, schema: { body: reminderSchema, response: { 201: followUpCreatedSchema } } },
    async (request, reply) => {
      const reminder = await remindersService.add(request.user!, request.body);
      return reply.status(201).send({ ...reminder, message: messages.board.reminderSet });
    },
  );

  app.get(
    '/reminders',
    {
      config: fieldWork,
      schema: { querystring: reminderListQuerySchema, response: { 200: z.array(followUpSchema) } },
    },
    (request) => remindersService.list(request.user!, request.query.status),
  );

  // Done or snooze (issue 15): own reminders only, another employee's is 404.
  app.put(
    '/reminders/:id',
    {
      config: fieldWork,
      schema: { params: leadParams, body: reminderUpdateSchema, response: { 200: followUpSchema } },
    },
    (request) => remindersService.update(request.user!, request.params.id, request.body),
  );
};
export default leadStatusRoutes;
