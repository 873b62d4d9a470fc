import { z } from 'zod';
import type { Lead } from '../../contract/leads';

/**
 * The lead JSON every lead-returning route answers (DESIGN.md §2). A response schema, so
 * fast-json-stringify writes it and nothing outside it (a hash, a token version) can leak.
 * It lives on the server side: the contract's Lead type stays zod-free for the client bundle.
 */
export const leadAnswer = z.object({
  leadID: z.number().int(),
  name: z.string(),
  email: z.string(),
  phoneNo: z.string(),
  contactNo: z.string(),
  visitDateTime: z.string().nullable(),
  configuration: z.string(),
  siteVisit: z.string(),
  assignedTo: z.string(),
  assignedDate: z.string().nullable(),
  location: z.string(),
  locationName: z.string(),
  interestedIn: z.string(),
  status: z.string().nullable(),
  leadStatusId: z.number().int().nullable(),
  importNote: z.string().optional(),
}) satisfies z.ZodType<Lead>;
