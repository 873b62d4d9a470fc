import type { LeadListItem } from '../../../../contract/leads-paging';
import { TOTAL_COUNT_HEADER } from '../../../../contract/leads-paging';
import { api } from '../../../lib/api-client';

export const SEARCH_LIMIT = 20;

/** The navbar search: the server answers every lead for an Admin, only their own for an employee. */
export async function searchLeads(
  q: string,
  signal?: AbortSignal,
): Promise<{ items: LeadListItem[]; total: number }> {
  const response = await api.get('Search/leads', {
    searchParams: { q, limit: SEARCH_LIMIT },
    ...(signal ? { signal } : {}),
  });
  const items = await response.json<LeadListItem[]>();
  const total = Number(response.headers.get(TOTAL_COUNT_HEADER) ?? items.length);
  return { items, total: Number.isFinite(total) ? total : items.length };
}
