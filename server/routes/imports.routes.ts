import { PassThrough } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type ImportHistoryItem,
  importIdParamsSchema,
  importMessages,
  type UndoImportResponse,
  type UploadResponse,
} from '../../contract/admin';
import {
  COMMIT_STREAM_TYPE,
  type CommitStreamLine,
  commitImportSchema,
  type ImportMapping,
  type ImportPreview,
  importMappingSchema,
  previewQuerySchema,
  wizardMessages,
} from '../../contract/import-wizard';
import { Role } from '../../contract/roles';
import { HttpError } from '../errors';
import { headerKey, rowMapping } from '../services/lead-import/preview.service';
import { uploadAnswer, uploadedFile } from './admin.routes';

const readers = { access: [Role.Admin, Role.Manager] } as const;
const adminOnly = { access: [Role.Admin] } as const;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** A progress line at most this often: enough for a bar, little for the link. */
const PROGRESS_EVERY_MS = 250;
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
  updated: z.number().int(),
  invalid: z.number().int(),
  warnings: z.number().int(),
  assignedTo: z.array(z.object({ email: z.string(), count: z.number().int() })),
  hasRejectedRows: z.boolean(),
  undoneAt: z.string().nullable(),
});

// /api/Admin/imports*: every import's record and its rejected-rows file, kept so that nothing an
// admin uploaded is unrecoverable (issue 19).
const importsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { leadImports, stats, importDrafts, importPreview, leadImport, config } = app.deps;
  const zone = { timeZone: config.agencyTimeZone };

  /** The preview of a kept file; without a mapping, the one remembered for its headers if any. */
  async function previewOf(
    draft: { id: number; fileName: string; file: Buffer },
    mapping: ImportMapping | undefined,
    counts: 'now' | 'later',
    by: number,
  ): Promise<ImportPreview> {
    const base = {
      draftId: draft.id,
      by,
      bytes: draft.file,
      fileName: draft.fileName,
      zone,
      countsLater: counts === 'later',
    };
    // The wizard asks for the exact counts of the preview it shows: the same pass has them.
    const reading = mapping && counts === 'now' ? importPreview.countsFor(draft.id, mapping) : undefined;
    const { layout, ...preview } = await (reading ?? importPreview.preview({ ...base, mapping }));
    if (mapping) return preview;
    const remembered = await importDrafts.rememberedMapping(headerKey(layout.header));
    if (!remembered) return preview;
    // On the sheet found for these headers, with the columns chosen for them last time.
    const again = await importPreview.preview({
      ...base,
      mapping: { ...JSON.parse(remembered), sheet: layout.sheetIndex },
      remembered: true,
    });
    return again;
  }

  async function draftOf(id: number) {
    const draft = await importDrafts.find(id, new Date());
    if (!draft) throw new HttpError(404, wizardMessages.draftNotFound);
    return draft;
  }

  // The wizard's upload: the file is kept, nothing else is written (issue 19).
  await app.register(async (uploads) => {
    await uploads.register(fastifyMultipart, {
      limits: { fileSize: config.maxUploadBytes, files: 1, fields: 10, parts: 12 },
    });
    uploads.post(
      '/imports',
      { config: { ...adminOnly, compress: false }, schema: { querystring: previewQuerySchema } },
      async (request) => {
        const { filename, bytes } = await uploadedFile(request, config.maxUploadBytes);
        // A copy of its own: the bytes may be handed to the parse worker.
        const draft = { fileName: filename, file: Buffer.from(bytes) };
        const draftId = await importDrafts.create({ createdBy: request.user!.userId, ...draft }, new Date());
        try {
          // This plugin's instance has no zod types; Fastify has checked the query against the schema.
          const { counts } = previewQuerySchema.parse(request.query);
          return await previewOf({ id: draftId, ...draft }, undefined, counts, request.user!.userId);
        } catch (error) {
          // A file that cannot be read is not kept.
          await importDrafts.remove(draftId);
          throw error;
        }
      },
    );
  });

  app.post(
    '/imports/:id/preview',
    {
      config: adminOnly,
      schema: { params: importIdParamsSchema, body: importMappingSchema, querystring: previewQuerySchema },
    },
    async (request) =>
      previewOf(await draftOf(request.params.id), request.body, request.query.counts, request.user!.userId),
  );

  app.post(
    '/imports/:id/commit',
    {
      config: { ...adminOnly, compress: false },
      schema: { params: importIdParamsSchema, body: commitImportSchema, response: { 200: uploadAnswer } },
    },
    async (request, reply) => {
      const draft = await draftOf(request.params.id);
      // A count still reading this file would only slow the commit down.
      importPreview.forget(draft.id);
      const { autoAssign, ...mapping } = request.body;
      const { duplicates } = mapping;
      const rules = rowMapping(mapping);
      // Asked for, the progress goes out as lines once the first rows are in (COMMIT_STREAM_TYPE);
      // until then an error is still an ordinary problem-JSON answer.
      const streamed = (request.headers.accept ?? '').includes(COMMIT_STREAM_TYPE);
      let stream: PassThrough | undefined;
      let lastLine = 0;
      const line = (value: CommitStreamLine) => `${JSON.stringify(value)}\n`;
      const onProgress = (rowsDone: number) => {
        const now = Date.now();
        if (!streamed || (stream && now - lastLine < PROGRESS_EVERY_MS)) return;
        lastLine = now;
        if (!stream) {
          stream = new PassThrough();
          // nginx would hold the lines until the end without the last header. A stream is piped
          // as it is, never serialised: the 200 schema (upload-leads' answer) types the JSON one.
          void (reply as unknown as FastifyReply)
            .type(COMMIT_STREAM_TYPE)
            .header('cache-control', 'no-store')
            .header('x-accel-buffering', 'no')
            .send(stream);
        }
        stream.write(line({ progress: { rowsDone } }));
      };
      let header: string[] = [];
      let answer: UploadResponse;
      try {
        answer = await leadImport.importLeads({
          bytes: draft.file,
          filename: draft.fileName,
          autoAssign,
          actorId: request.user!.userId,
          zone,
          sheet: rules.sheet,
          mapping: rules.mapping,
          duplicates,
          onLayout: (layout) => {
            header = layout.header;
          },
          onProgress,
          log: (fields, message) => request.log.info({ ...fields, draftId: draft.id }, message),
        });
      } catch (error) {
        if (!stream) throw error;
        if (!(error instanceof HttpError)) request.log.error({ err: error }, 'import failed');
        const failed =
          error instanceof HttpError
            ? { status: error.status, message: error.message }
            : { status: 500, message: 'Something went wrong on our side. Nothing was imported.' };
        stream.end(line({ error: failed }));
        return reply;
      }
      await importDrafts.remove(draft.id);
      // The next file with these headers opens with this mapping (issue 19).
      // Not the sheet: the key is the header's, found on whichever sheet the next file has it.
      const { sheet: _sheet, ...kept } = mapping;
      await importDrafts.remember(headerKey(header), JSON.stringify(kept), new Date().toISOString());
      if (!stream) return answer;
      stream.end(line({ answer }));
      return reply;
    },
  );

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
          200: z.object({
            removed: z.number().int(),
            kept: z.number().int(),
            restored: z.number().int(),
            message: z.string(),
          }),
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
      request.log.info({ importId: request.params.id, by: request.user!.email, ...result }, 'import undone');
      return { ...result, message: importMessages.undone(result.removed, result.kept, result.restored) };
    },
  );
};
export default importsRoutes;
