import { z } from 'zod';
import { adminLeadsQuerySchema } from './admin';

// GET /api/Admin/leads/export?format=xlsx&… (issue 17): every lead the filter matches, as a
// spreadsheet, for Admins and Managers. The filters are the lead list's (contract/admin.ts).

const flag = z
  .string()
  .optional()
  .transform((v) => v !== undefined && /^(true|1|yes|on)$/i.test(v));

export const leadExportQuerySchema = adminLeadsQuerySchema
  .pick({ search: true, employeeId: true, siteVisit: true, clientStatusId: true })
  .extend({
    format: z.literal('xlsx', { error: 'Only format=xlsx is offered.' }).default('xlsx'),
    /** Only leads no one holds, as the dashboard's default view (`GET /api/Admin/unassigned`). */
    unassigned: flag,
  });
export type LeadExportQuery = z.input<typeof leadExportQuerySchema>;

/** The sheet's columns, in order (one row per live lead, oldest lead first). */
export const LEAD_EXPORT_COLUMNS = [
  'Lead ID',
  'Name',
  'Phone',
  'Email',
  'Campaign',
  'Location',
  'Configuration',
  'Interested In',
  'Visit Date',
  'Status',
  'Held By',
  'Assigned On',
  'Last Note',
  'Last Note By',
  'Last Note At',
  'Next Follow-up',
  'Follow-up Note',
  'Created On',
] as const;

/** The name the browser saves the file under: the agency's date of the export. */
export const exportFileName = (day: string) => `leads-${day}.xlsx`;
