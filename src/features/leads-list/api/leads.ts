import type { Lead } from '../../../../contract/leads';
import { LEADS_PAGE_SIZE, type LeadListItem, TOTAL_COUNT_HEADER } from '../../../../contract/leads-paging';
import { api } from '../../../lib/api-client';

export interface LeadsPage {
  items: LeadListItem[];
  total: number;
}

/** One page of the Leads List; the server searches and pages (DESIGN.md §2). */
export async function fetchLeadsPage(
  search: string,
  page: number,
  signal?: AbortSignal,
  pageSize = LEADS_PAGE_SIZE,
): Promise<LeadsPage> {
  const response = await api.get('Registration', {
    searchParams: { search, page, pageSize },
    ...(signal ? { signal } : {}),
  });
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
