import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type AdminLeadsQuery,
  adminLeadsQuerySchema,
  assignSchema,
  newLeadSchema,
} from '../../contract/admin';
import { TOTAL_COUNT_HEADER } from '../../contract/leads-list';
import { messages } from '../../contract/messages';
import { Role } from '../../contract/roles';
import { badRequest, HttpError } from '../errors';
import { NO_STORE, notModified } from '../plugins/etag';
import {
  type CachedAnswer,
  COMPRESS_THRESHOLD,
  type Encoding,
  preferredEncoding,
} from '../services/answer-cache';
import { leadAnswer } from './lead-answer.schema';

const readers = { access: [Role.Admin, Role.Manager] } as const;
const adminOnly = { access: [Role.Admin] } as const;
// The list routes compress, tag and revalidate each cached answer themselves (sendList):
// @fastify/compress's hooks and the ETag hook would only cost time on every call. They take no
// body, so nothing to decompress either.
const cachedList = { compress: false, decompress: false, ownETag: true } as const;
// The upload's answer is mostly base64 of the rejected-rows .xlsx, already deflated: compressing
// it again saves about a quarter of its size and cost 25 ms of a 10,000-row import's 350.
const uploadConfig = { ...adminOnly, compress: false } as const;

/**
 * The uploaded file in one Buffer with memory of its own, filled as the body arrives, so it can
 * move to the parse worker rather than be copied there. Sized from the request's length (the
 * file is a little smaller): collecting the chunks and joining them afterwards cost a 10 MB
 * upload 50 ms of copying into fresh memory after the last byte came. Null when it is over the
 * size limit.
 */
export async function readUpload(
  file: MultipartFile,
  requestLength: number,
  maxBytes: number,
): Promise<Buffer | null> {
  let bytes = Buffer.allocUnsafeSlow(Math.min(requestLength, maxBytes) || 64 * 1024);
  let length = 0;
  for await (const chunk of file.file as AsyncIterable<Buffer>) {
    if (length + chunk.length > bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * bytes.length, length + chunk.length));
      bytes.copy(grown, 0, 0, length);
      bytes = grown;
    }
    chunk.copy(bytes, length);
    length += chunk.length;
  }
  return file.file.truncated ? null : bytes.subarray(0, length);
}

/**
 * The one file of a multipart upload (Upload Leads, the import wizard): 415 when the request is
 * not multipart, 400 without a file, 413 past `maxBytes`.
 */
export async function uploadedFile(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ filename: string; bytes: Buffer }> {
  if (!request.isMultipart()) throw new HttpError(415, uploadRouteMessages.notMultipart);
  const file = await request.file();
  if (!file) throw badRequest(messages.upload.noFile);
  const bytes = await readUpload(file, Number(request.headers['content-length']) || 0, maxBytes);
  if (!bytes) throw new HttpError(413, uploadRouteMessages.tooLarge(Math.round(maxBytes / 1024 / 1024)));
  return { filename: file.filename, bytes };
}

export const uploadAnswer = z.object({
  totalRows: z.number().int(),
  inserted: z.number().int(),
  skipped: z.number().int(),
  autoAssigned: z.boolean(),
  invalidFile: z.string().optional(),
  message: z.string().optional(),
  importId: z.number().int().optional(),
  sheet: z.object({ name: z.string(), sheets: z.array(z.string()) }).optional(),
  duplicatesInFile: z.number().int().optional(),
  duplicatesInSystem: z.number().int().optional(),
  updated: z.number().int().optional(),
  invalid: z.number().int().optional(),
  warnings: z.number().int().optional(),
  assignedTo: z.array(z.object({ email: z.string(), count: z.number().int() })).optional(),
});
const statsAnswer = z.object({
  assigned: z.number().int(),
  unassigned: z.number().int(),
  perEmployee: z.array(z.object({ email: z.string(), count: z.number().int() })),
  perCampaign: z.array(z.object({ siteVisit: z.string(), count: z.number().int() })),
});
const uploadQuery = z.object({
  // Spec §7 sends true|false; auto-assign is on unless the caller says otherwise (spec §9).
  autoAssign: z
    .string()
    .optional()
    .transform((v) => v === undefined || !/^(false|0|no|off)$/i.test(v)),
  // A zone for spreadsheet dates that name none, minutes east of UTC (IST = 330); without it
  // the agency's zone (AGENCY_TIMEZONE) is used, which is what the dashboard relies on.
  utcOffset: z.coerce.number().int().min(-840).max(840).optional(),
});

export const uploadRouteMessages = {
  notMultipart: 'Send the spreadsheet as multipart/form-data in a field named "file".',
  tooLarge: (mb: number) => `The file is larger than ${mb} MB, the limit for one upload.`,
};

// The answers are sent as ready JSON (server/services/answer-cache.ts): JSON.stringify, because
// fast-json-stringify from the schema was no faster on 200 leads and twice as slow on 5,000
// (Node 20). The schema still documents the answer (OpenAPI).
const plainJson = () => (data: unknown) => JSON.stringify(data);

/** Compressed here, once per answer, rather than by @fastify/compress on every request. */
function encodingFor(answer: CachedAnswer, wanted: Encoding | undefined): Encoding | undefined {
  return answer.body.length < COMPRESS_THRESHOLD ? undefined : wanted;
}

// /api/Admin/*: leads, employees, assignment, upload, stats (spec §7, DESIGN.md §2–§4).
const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { leadsService, assignment, stats, leadImport, importWorkers, dashboardReader, listAnswers, config } =
    app.deps;

  /**
   * A lead list, from the answer cache while the database has not changed since it was read.
   * A cached answer is sent without waiting on anything (no promise per call, issue 7).
   */
  function sendList(
    request: FastifyRequest,
    query: AdminLeadsQuery,
    reply: FastifyReply,
    unassignedOnly: boolean,
  ): Promise<void> | undefined {
    const user = request.user!;
    // Admins and Managers see the same lists; an employee only their own (DESIGN.md §3).
    const scope = user.roleId === Role.Employee ? `employee ${user.userId}` : 'all';
    const key = `${unassignedOnly ? 'unassigned' : 'leads'} ${scope} ${JSON.stringify(query)}`;
    const wanted = preferredEncoding(request.headers['accept-encoding']);
    const version = request.dataVersion;
    const ready = version === null ? undefined : listAnswers.getNow(key, version);
    if (ready) {
      const encoding = encodingFor(ready, wanted);
      const body = encoding ? ready.encodedNow(encoding) : ready.body;
      if (body) return send(request, reply, ready, body, encoding);
    }
    return (async () => {
      const mark = version ?? (await dashboardReader.version());
      const answer = await listAnswers.get(key, mark, () => leadsService.list(query, user, unassignedOnly));
      const encoding = encodingFor(answer, wanted);
      send(request, reply, answer, encoding ? await answer.encoded(encoding) : answer.body, encoding);
    })();
  }

  function send(
    request: FastifyRequest,
    reply: FastifyReply,
    answer: CachedAnswer,
    body: Buffer,
    encoding?: Encoding,
  ): undefined {
    reply
      .header(TOTAL_COUNT_HEADER, String(answer.total))
      .header('etag', answer.etag)
      .header('cache-control', NO_STORE)
      .header('vary', 'Accept-Encoding');
    // The refresh of a board whose list has not changed: no body (server/plugins/etag.ts).
    if (notModified(request, answer.etag)) {
      reply.code(304).send();
      return;
    }
    reply.type('application/json; charset=utf-8');
    if (encoding) reply.header('content-encoding', encoding);
    reply.send(body);
  }

  app.addHook('onClose', async () => {
    await importWorkers.close();
    await dashboardReader.close();
  });

  app.get(
    '/leads',
    {
      // Employees read their own leads here too (their boards, DESIGN.md §3).
      config: { access: [Role.Admin, Role.Manager, Role.Employee], ...cachedList },
      schema: { querystring: adminLeadsQuerySchema, response: { 200: z.array(leadAnswer) } },
      serializerCompiler: plainJson,
    },
    (request, reply) => sendList(request, request.query, reply, false),
  );

  app.get(
    '/unassigned',
    {
      config: { ...readers, ...cachedList },
      schema: { querystring: adminLeadsQuerySchema, response: { 200: z.array(leadAnswer) } },
      serializerCompiler: plainJson,
    },
    (request, reply) => sendList(request, request.query, reply, true),
  );

  app.post(
    '/leads',
    {
      config: { access: [Role.Admin, Role.Employee] },
      schema: { body: newLeadSchema, response: { 201: leadAnswer } },
    },
    async (request, reply) => reply.status(201).send(await leadsService.add(request.body, request.user!)),
  );

  app.get(
    '/employees',
    {
      config: readers,
      schema: {
        response: { 200: z.array(z.object({ registrationId: z.number().int(), email: z.string() })) },
      },
    },
    () => stats.employees(),
  );

  app.post(
    '/assign',
    {
      config: adminOnly,
      // 100,000 lead ids are ~700 KB of JSON, past the app's 1 MB default with room to spare.
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        body: assignSchema,
        response: { 200: z.object({ assigned: z.number().int(), message: z.string() }) },
      },
    },
    (request) => assignment.assign(request.body.employeeId, request.body.leadIds, request.user!.userId),
  );

  app.get('/stats', { config: readers, schema: { response: { 200: statsAnswer } } }, (request) => {
    // The dashboard is open: an upload may follow, so have a parse worker ready for it.
    importWorkers.warm();
    return stats.stats(request.dataVersion);
  });

  // Multipart parsing in a scope of its own: the plugin adds an async onResponse hook to every
  // route it is registered beside, a promise on each list call that never reads a file.
  await app.register(async (uploads: Parameters<FastifyPluginAsyncZod>[0]) => {
    await uploads.register(fastifyMultipart, {
      limits: { fileSize: config.maxUploadBytes, files: 1, fields: 10, parts: 12 },
    });
    uploads.post(
      '/upload-leads',
      { config: uploadConfig, schema: { querystring: uploadQuery, response: { 200: uploadAnswer } } },
      async (request) => {
        const { filename, bytes } = await uploadedFile(request, config.maxUploadBytes);
        return leadImport.importLeads({
          bytes,
          bytesMayMove: true,
          filename,
          autoAssign: request.query.autoAssign,
          actorId: request.user!.userId,
          zone:
            request.query.utcOffset === undefined
              ? { timeZone: config.agencyTimeZone }
              : { offsetMinutes: request.query.utcOffset },
          log: (fields, message) => request.log.info(fields, message),
        });
      },
    );
  });
};
export default adminRoutes;
