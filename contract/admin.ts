import { z } from 'zod';
import { leadFilterQueryFields, MAX_ID, MAX_PAGE, normalisePhone } from './leads-list';
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
  // Drill-down and export filters (issue 17): holder, campaign, current client status (0 = New).
  ...leadFilterQueryFields,
});
export type AdminLeadsQuery = z.infer<typeof adminLeadsQuerySchema>;

// Sentences the spec does not word; contract/messages.ts holds the spec's own.
export const adminMessages = {
  employeeNotFound: 'Employee not found.',
  notAnEmployee: 'That account is not an active employee.',
  leadsNotFound: 'Some leads were not found.',
  leadsAlreadyAssigned: 'Some leads are already assigned',
  /** Issue 19: which of the selection someone else assigned first; nothing was assigned. */
  leadsTaken: (taken: readonly { name: string; assignedTo: string }[], selected: number) => {
    const named = taken
      .slice(0, 3)
      .map((t) => `${t.name || 'a lead with no name'} (to ${t.assignedTo})`)
      .join(', ');
    const more = taken.length > 3 ? ` and ${taken.length - 3} more` : '';
    const verb = taken.length === 1 ? 'is' : 'are';
    return (
      `Nothing was assigned: ${taken.length} of the ${selected} selected leads ${verb} already ` +
      `assigned: ${named}${more}. Unselect ${taken.length === 1 ? 'it' : 'them'} and assign again.`
    );
  },
  phoneRule: 'Phone number must have 10 digits.',
  emailInvalid: messages.registration.emailInvalid,
  dateInvalid: 'Visit date and time is not a valid date.',
  assigneeUnknown: 'No active employee has that email.',
  noEmployees: 'No active employees: the new leads were left unassigned.',
  duplicatePhone: (holder: string) =>
    `A lead with this phone already exists (${holder ? `assigned to ${holder}` : 'unassigned'}).`,
  /** The same refusal without the holder, for anyone but an Admin (issue 16). */
  duplicatePhoneTaken: 'A lead with this phone already exists.',
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
  /** Issue 19, beyond the spec (optional for a client): the import's record in the history. */
  importId?: number;
  /** The sheet read and the workbook's sheets. */
  sheet?: { name: string; sheets: string[] };
  /** `skipped` split: repeats of an earlier row, phones live leads hold, rows with no usable phone. */
  duplicatesInFile?: number;
  duplicatesInSystem?: number;
  /** Rows whose phone a live lead held and whose values filled that lead's empty fields. */
  updated?: number;
  invalid?: number;
  /** Leads kept although a field could not be used as written (see each lead's importNote). */
  warnings?: number;
  /** How auto-assign spread the new leads. */
  assignedTo?: { email: string; count: number }[];
}

/** `GET /api/Admin/imports`: one import in the history, newest first (issue 19). */
export interface ImportHistoryItem {
  importId: number;
  createdAt: string;
  createdBy: string;
  fileName: string;
  totalRows: number;
  inserted: number;
  duplicatesInFile: number;
  duplicatesInSystem: number;
  updated: number;
  invalid: number;
  warnings: number;
  assignedTo: { email: string; count: number }[];
  /** `GET /api/Admin/imports/{importId}/rejected-rows` serves the file when true. */
  hasRejectedRows: boolean;
  /** When the import was undone (`POST /api/Admin/imports/{importId}/undo`), else null. */
  undoneAt: string | null;
}

/** `POST /api/Admin/imports/{id}/undo`: leads removed, and leads kept because they were worked. */
export interface UndoImportResponse {
  removed: number;
  kept: number;
  /** Existing leads whose fields the import had filled and that were emptied again. */
  restored: number;
  message: string;
}

export const importIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(MAX_ID) });

export const importMessages = {
  notFound: 'No import with that id.',
  noRejectedRows: 'That import rejected no rows.',
  alreadyUndone: 'That import was already undone.',
  undone: (removed: number, kept: number, restored = 0) =>
    `Removed ${removed} ${removed === 1 ? 'lead' : 'leads'} of that import.` +
    (kept > 0
      ? ` Kept ${kept} ${kept === 1 ? 'lead' : 'leads'} that already ${kept === 1 ? 'has' : 'have'} a status, note or reminder.`
      : '') +
    (restored > 0
      ? ` Emptied the fields it had filled on ${restored} existing ${restored === 1 ? 'lead' : 'leads'}.`
      : ''),
} as const;

/** `GET /api/Admin/stats` (DESIGN.md §2): counts over live leads. */
export interface LeadStats {
  assigned: number;
  unassigned: number;
  perEmployee: { email: string; count: number }[];
  perCampaign: { siteVisit: string; count: number }[];
}

/** The label of leads whose siteVisit is empty, in the campaign counts. */
export const NO_CAMPAIGN = '(none)';

/**
 * The upload's spreadsheet types: spec §5, §9 (.xls, .xlsx) and issue 19 (.csv). Any other name
 * still gets the spec's 'Only Excel files are allowed'.
 */
export const SPREADSHEET_EXTENSIONS = ['.xls', '.xlsx', '.csv'] as const;
export function isSpreadsheetName(name: string): boolean {
  const lower = name.toLowerCase();
  return SPREADSHEET_EXTENSIONS.some((ext) => lower.endsWith(ext));
}
