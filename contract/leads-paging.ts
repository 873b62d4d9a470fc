// Paging of lead lists, shared by the server and the web app. Kept free of zod so the signed-in
// frame and the employee board can use it without the schema library (issue 7).
import type { Lead } from './leads';

// Spec §9: the Leads List shows 5 leads a page.
export const LEADS_PAGE_SIZE = 5;
export const LEADS_MAX_PAGE_SIZE = 100;
/** Response header carrying the filtered total of a paged list call (DESIGN.md §2). */
export const TOTAL_COUNT_HEADER = 'x-total-count';

/** One row of `GET /api/Registration` (spec §7). */
export type LeadListItem = Pick<Lead, 'leadID' | 'name' | 'email' | 'contactNo'>;
