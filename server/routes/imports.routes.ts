import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type ImportHistoryItem,
  importIdParamsSchema,
  importMessages,
  type UndoImportResponse,
} from '../../contract/admin';
import { Role } from '../../contract/roles';
import { HttpError } from '../errors';

const readers = { access: [Role.Admin, Role.Manager] } as const;
const adminOnly = { access: [Role.Admin] } as const;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The history shows the latest imports; older ones stay in the database. */
const HISTORY_LENGTH = 200;

const historyItem = z.object({
  importId: z.number().int(),
  createdAt: z.string(),
  createdBy: z.string(),
  fileName: z.string(),
  totalRows: z.number().int(),
  inserted: z.number().int(),
  duplicatesInFile: z.number().int(),
  duplicatesInSystem: z.number().int(),
  invalid: z.number().int(),
  warnings: z.number().int(),
  assignedTo: z.array(z.object({ email: z.string(), count: z.number().int() })),
  hasRejectedRows: z.boolean(),
  undoneAt: z.string().nullable(),
});

// /api/Admin/imports*: every import's record and its rejected-rows file, kept so that nothing an
// admin uploaded is unrecoverable (issue 19).
const importsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { leadImports, stats } = app.deps;

  app.get(
    '/imports',
    { config: readers, schema: { response: { 200: z.array(historyItem) } } },
    async (): Promise<ImportHistoryItem[]> => {
      const records = await leadImports.list(HISTORY_LENGTH);
      return records.map(({ id, assigned, ...rest }) => ({
        importId: id,
        ...rest,
        assignedTo: assigned,
      }));
    },
  );

  app.get(
    '/imports/:id/rejected-rows',
    { config: readers, schema: { params: importIdParamsSchema } },
    async (request, reply) => {
      const file = await leadImports.rejectedFile(request.params.id);
      if (file === undefined) throw new HttpError(404, importMessages.notFound);
      if (file === null) throw new HttpError(404, importMessages.noRejectedRows);
      // Spec §9 names the download InvalidLeads.xlsx.
      return reply
        .type(XLSX_TYPE)
        .header('content-disposition', `attachment; filename="InvalidLeads-${request.params.id}.xlsx"`)
        .header('cache-control', 'private, no-store')
        .send(file);
    },
  );

  app.post(
    '/imports/:id/undo',
    {
      config: adminOnly,
      schema: {
        params: importIdParamsSchema,
        response: {
          200: z.object({ removed: z.number().int(), kept: z.number().int(), message: z.string() }),
        },
      },
    },
    async (request): Promise<UndoImportResponse> => {
      const result = await leadImports.undo(request.params.id, new Date().toISOString());
      if (result === null) throw new HttpError(404, importMessages.notFound);
      if (result === 'undone')
        throw new HttpError(409, importMessages.alreadyUndone, { title: importMessages.alreadyUndone });
      stats.invalidate();
      // Who took which import back stays in the log (issue 19).
      request.log.info(
        { importId: request.params.id, by: request.user!.email, removed: result.removed, kept: result.kept },
        'import undone',
      );
      return { ...result, message: importMessages.undone(result.removed, result.kept) };
    },
  );
};
export default importsRoutes;
