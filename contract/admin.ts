import { z } from 'zod';
import { MAX_ID, MAX_PAGE, normalisePhone } from './leads-list';
import { messages } from './messages';

// Payloads and answers of /api/Admin/* (spec §3, §7; DESIGN.md §2–§4).

/** Largest page the admin lists serve; the dashboard pages through 100,000 leads with it. */
export const ADMIN_MAX_PAGE_SIZE = 5000;

/**
 * `GET /api/Admin/leads` and `/unassigned`. Without any of these the whole list (spec §7).
 * `afterId` is a keyset cursor (leads with a larger id), so the dashboard can fetch 100,000 leads
 * page by page without OFFSET scans growing with every page.
 */
export const adminLeadsQuerySchema = z.object({
  search: z.string().max(200).optional(),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).optional(),
  pageSize: z.coerce.number().int().min(1).max(ADMIN_MAX_PAGE_SIZE).optional(),
  afterId: z.coerce.number().int().min(0).max(MAX_ID).optional(),
});
export type AdminLeadsQuery = z.infer<typeof adminLeadsQuerySchema>;

// Sentences the spec does not word; contract/messages.ts holds the spec's own.
export const adminMessages = {
  employeeNotFound: 'Employee not found.',
  notAnEmployee: 'That account is not an active employee.',
  leadsNotFound: 'Some leads were not found.',
  leadsAlreadyAssigned: 'Some leads are already assigned',
  phoneRule: 'Phone number must have 10 digits.',
  emailInvalid: messages.registration.emailInvalid,
  dateInvalid: 'Visit date and time is not a valid date.',
  assigneeUnknown: 'No active employee has that email.',
  noEmployees: 'No active employees: the new leads were left unassigned.',
  duplicatePhone: (holder: string) =>
    `A lead with this phone already exists (${holder ? `assigned to ${holder}` : 'unassigned'}).`,
} as const;

const m = adminMessages;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Spec §3 "Assign payload". */
export const assignSchema = z.object({
  employeeId: z.coerce
    .number({ error: messages.assign.needSelection })
    .int()
    .positive(messages.assign.needSelection),
  leadIds: z.array(z.coerce.number().int().positive()).min(1, messages.assign.needSelection).max(200_000),
});
export type AssignRequest = z.input<typeof assignSchema>;

export interface AssignResponse {
  assigned: number;
  message: string;
}

// Older clients send null for empty text fields.
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v ?? '');

/**
 * Spec §3 "New lead" (`POST /api/Admin/leads`): name and phone are required and the phone is
 * normalised as imports do (DESIGN.md §4). The form, the outbox and the route share it.
 */
export const newLeadSchema = z
  .object({
    name: optionalText(200),
    phoneNo: z.string().max(32).nullish(),
    contactNo: z.string().max(32).nullish(),
    email: optionalText(254).refine((v) => v === '' || emailPattern.test(v), m.emailInvalid),
    assignedTo: z.string().trim().max(254).nullish(),
    assignedDate: z.string().max(64).nullish(),
    // The initial status arrives with the first note (DESIGN.md §5); accepted and not stored here.
    status: z.unknown().optional(),
    visitDateTime: z
      .string()
      .max(64)
      .refine((v) => v === '' || !Number.isNaN(Date.parse(v)), m.dateInvalid)
      .nullish(),
    configuration: optionalText(200),
    siteVisit: optionalText(200),
    location: optionalText(200),
    interestedIn: optionalText(200),
  })
  .superRefine((v, ctx) => {
    const phone = (v.phoneNo ?? v.contactNo ?? '').trim();
    if (v.name === '')
      ctx.addIssue({ code: 'custom', path: ['name'], message: messages.board.nameAndPhoneRequired });
    if (phone === '') {
      ctx.addIssue({ code: 'custom', path: ['phoneNo'], message: messages.board.nameAndPhoneRequired });
    } else if (normalisePhone(phone) === null) {
      ctx.addIssue({ code: 'custom', path: ['phoneNo'], message: m.phoneRule });
    }
  });
export type NewLeadRequest = z.input<typeof newLeadSchema>;
export type NewLead = z.output<typeof newLeadSchema>;

/** Spec §3 "Upload response"; `message` says why nothing was auto-assigned when that happens. */
export interface UploadResponse {
  totalRows: number;
  inserted: number;
  skipped: number;
  autoAssigned: boolean;
  invalidFile?: string;
  message?: string;
}

/** `GET /api/Admin/stats` (DESIGN.md §2): counts over live leads. */
export interface LeadStats {
  assigned: number;
  unassigned: number;
  perEmployee: { email: string; count: number }[];
  perCampaign: { siteVisit: string; count: number }[];
}

/** The label of leads whose siteVisit is empty, in the campaign counts. */
export const NO_CAMPAIGN = '(none)';

/** The upload's spreadsheet types (spec §5, §9). */
export const SPREADSHEET_EXTENSIONS = ['.xls', '.xlsx'] as const;
export function isSpreadsheetName(name: string): boolean {
  const lower = name.toLowerCase();
  return SPREADSHEET_EXTENSIONS.some((ext) => lower.endsWith(ext));
}
