import { z } from 'zod';
import { LEADS_MAX_PAGE_SIZE } from './leads-paging';
import { messages } from './messages';

// The web app imports these from ./leads-paging; the server's routes and services from here.
export { LEADS_MAX_PAGE_SIZE, LEADS_PAGE_SIZE, type LeadListItem, TOTAL_COUNT_HEADER } from './leads-paging';
export { normalisePhone } from './phone';

/** Past this page an OFFSET overflows SQLite's 64-bit integers (found by fuzzing, issue 6). */
export const MAX_PAGE = 1_000_000;
/** Row ids are PostgreSQL `serial` (32-bit) columns. */
export const MAX_ID = 2_147_483_647;

/**
 * The lead filters of issue 17 (holder, campaign, current client status with 0 = New), shared by
 * `GET /api/Admin/leads`, its export and the Leads List, so each names and checks them alike.
 * `siteVisit` is the exact campaign; '' picks leads with none.
 */
export const leadFilterQueryFields = {
  employeeId: z.coerce.number().int().min(1).max(MAX_ID).optional(),
  siteVisit: z.string().max(200).optional(),
  clientStatusId: z.coerce.number().int().min(0).max(MAX_ID).optional(),
};

/**
 * `unassigned=true`: only leads no one holds, as the export's flag and `GET /api/Admin/unassigned`.
 * Any other word is refused rather than read as false, so a typo does not widen the list.
 */
const unassignedFlag = z
  .string()
  .regex(/^(true|false|1|0|yes|no|on|off)$/i, 'unassigned is true or false.')
  .optional()
  .transform((v) => v !== undefined && /^(true|1|yes|on)$/i.test(v));

/** `GET /api/Registration`: the Leads List, searched, filtered (issue 19) and paged. */
export const leadListQuerySchema = z.object({
  search: z.string().max(200).optional(),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).optional(),
  pageSize: z.coerce.number().int().min(1).max(LEADS_MAX_PAGE_SIZE).optional(),
  ...leadFilterQueryFields,
  unassigned: unassignedFlag,
});
export type LeadListQuery = z.infer<typeof leadListQuerySchema>;

/** `GET /api/Search/leads?q=`: the navbar search (spec §1), at most `limit` matches. */
export const leadSearchQuerySchema = z.object({
  q: z.string().trim().min(1).max(200),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type LeadSearchQuery = z.infer<typeof leadSearchQuerySchema>;

// Sentences of lead editing that the spec does not word; contract/messages.ts holds the spec's.
export const leadEditMessages = {
  nameRequired: 'Name is required.',
  emailInvalid: messages.registration.emailInvalid,
  phoneRule: 'Phone number must have 10 digits.',
  phoneMismatch: 'phoneNo and contactNo hold different numbers.',
  phoneTaken: 'Another lead already has this phone number.',
  dateInvalid: 'Visit date and time is not a valid date.',
  notFound: 'Lead not found.',
} as const;

const m = leadEditMessages;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Older clients send null for empty text fields; null and '' mean the same here.
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((v) => v ?? '');

/**
 * `PUT /api/Leads/{leadID}`: the whole lead as the client holds it. Fields it leaves out stay as
 * they are (the spec's Leads List only knows leadID, name, email and contactNo); leadID,
 * assignedTo, status and leadStatusId are not editable here and are dropped.
 */
export const leadUpdateSchema = z.object({
  name: z.string().trim().min(1, m.nameRequired).max(200),
  email: text(254)
    .refine((v) => v === '' || emailPattern.test(v), m.emailInvalid)
    .optional(),
  phoneNo: z.string().max(32).optional(),
  contactNo: z.string().max(32).optional(),
  visitDateTime: z
    .string()
    .max(64)
    .refine((v) => !Number.isNaN(Date.parse(v)), m.dateInvalid)
    .nullable()
    .optional(),
  configuration: text(200).optional(),
  siteVisit: text(200).optional(),
  location: text(200).optional(),
  locationName: text(200).optional(),
  interestedIn: text(200).optional(),
});
export type LeadUpdateRequest = z.infer<typeof leadUpdateSchema>;
