import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { exportFileName, leadExportQuerySchema } from '../../contract/lead-export';
import { Role } from '../../contract/roles';
import { agencyDay } from '../services/lead-export/cells';
import { ExportAbandoned } from '../services/lead-export/lead-export.service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

// GET /api/Admin/leads/export (issue 17): the lead list's filter as a spreadsheet, streamed.
const leadExportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { leadExport, config } = app.deps;

  app.get(
    '/leads/export',
    {
      // Admins and Managers; the file is deflated already, so no compression on top.
      config: { access: [Role.Admin, Role.Manager], compress: false },
      schema: { querystring: leadExportQuerySchema },
    },
    (request, reply) => {
      const q = request.query;
      const out = new PassThrough();
      const started = Date.now();
      leadExport
        .write(
          {
            search: q.search,
            unassignedOnly: q.unassigned,
            assignedToId: q.employeeId,
            siteVisit: q.siteVisit,
            clientStatusId: q.clientStatusId,
          },
          out,
        )
        .then(
          (rows) => request.log.info({ rows, ms: Date.now() - started }, 'leads exported'),
          (error: unknown) => {
            // The headers are gone: all that is left is to cut the download short.
            if (!(error instanceof ExportAbandoned)) request.log.error({ err: error }, 'lead export failed');
            out.destroy(error instanceof Error ? error : new Error(String(error)));
          },
        );
      const day = agencyDay(new Date(), { timeZone: config.agencyTimeZone });
      return reply
        .type(XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${exportFileName(day)}"`)
        .header('cache-control', 'private, no-store')
        .send(out);
    },
  );
};
export default leadExportRoutes;
