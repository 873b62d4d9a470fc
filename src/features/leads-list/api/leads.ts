import type { Lead } from '../../../../contract/leads';
import { LEADS_PAGE_SIZE, type LeadListItem, TOTAL_COUNT_HEADER } from '../../../../contract/leads-paging';
import { api } from '../../../lib/api-client';

export interface LeadsPage {
  items: LeadListItem[];
  total: number;
}

/**
 * The Leads List's filters (issue 19), named as `GET /api/Registration` and the export take them:
 * `siteVisit` '' is leads with no campaign, `clientStatusId` 0 is New.
 */
export interface LeadsFilter {
  siteVisit?: string;
  employeeId?: number;
  unassigned?: boolean;
  clientStatusId?: number;
}

/** One page of the Leads List; the server searches, filters and pages (DESIGN.md §2). */
export async function fetchLeadsPage(
  search: string,
  page: number,
  signal?: AbortSignal,
  pageSize = LEADS_PAGE_SIZE,
  filter: LeadsFilter = {},
): Promise<LeadsPage> {
  const searchParams: Record<string, string | number> = { search, page, pageSize };
  // Only the filters set: the server refuses an empty employeeId rather than reading it as "all".
  if (filter.siteVisit !== undefined) searchParams.siteVisit = filter.siteVisit;
  if (filter.employeeId !== undefined) searchParams.employeeId = filter.employeeId;
  if (filter.unassigned) searchParams.unassigned = 'true';
  if (filter.clientStatusId !== undefined) searchParams.clientStatusId = filter.clientStatusId;
  const response = await api.get('Registration', { searchParams, ...(signal ? { signal } : {}) });
  const items = await response.json<LeadListItem[]>();
  const total = Number(response.headers.get(TOTAL_COUNT_HEADER) ?? items.length);
  return { items, total: Number.isFinite(total) ? total : items.length };
}

export async function deleteLead(leadID: number): Promise<void> {
  await api.delete(`Leads/${leadID}`);
}

/** Spec §7: PUT carries the whole lead as the list holds it, with the name replaced. */
export function updateLead(lead: LeadListItem): Promise<Lead> {
  return api.put(`Leads/${lead.leadID}`, { json: lead }).json<Lead>();
}
