import type { LeadsFilter } from '../api/leads';

/**
 * The Leads List's page, page size and filters live in its address (`/leads?status=3&page=2`),
 * so that Back from a lead's page, a reload or a shared link shows the same list again; a
 * component's state was lost on every one of those.
 */
export interface ListState {
  page: number;
  pageSize: number;
  filter: LeadsFilter;
}

const KEYS = { page: 'page', pageSize: 'per', campaign: 'campaign', employee: 'employee', status: 'status' };
/** `employee=none`: the leads nobody holds. */
const NOBODY = 'none';

function whole(text: string | null): number | undefined {
  if (text === null || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}

/** The list as the address says it; what it cannot read is left at its default. */
export function readListState(params: URLSearchParams, pageSizes: readonly number[]): ListState {
  const per = whole(params.get(KEYS.pageSize));
  const filter: LeadsFilter = {};
  // A campaign may be '' (leads with none): present and empty is a filter, absent is "All".
  const campaign = params.get(KEYS.campaign);
  if (campaign !== null) filter.siteVisit = campaign;
  const employee = params.get(KEYS.employee);
  if (employee === NOBODY) filter.unassigned = true;
  else if (whole(employee) !== undefined) filter.employeeId = whole(employee);
  const status = whole(params.get(KEYS.status));
  if (status !== undefined) filter.clientStatusId = status;
  return {
    page: Math.max(1, whole(params.get(KEYS.page)) ?? 1),
    pageSize: per !== undefined && pageSizes.includes(per) ? per : pageSizes[0]!,
    filter,
  };
}

/** The address for `next`, keeping what else it says (the search); defaults are left out. */
export function writeListState(
  params: URLSearchParams,
  next: ListState,
  pageSizes: readonly number[],
): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const key of Object.values(KEYS)) out.delete(key);
  const { page, pageSize, filter } = next;
  if (filter.siteVisit !== undefined) out.set(KEYS.campaign, filter.siteVisit);
  if (filter.unassigned) out.set(KEYS.employee, NOBODY);
  else if (filter.employeeId !== undefined) out.set(KEYS.employee, String(filter.employeeId));
  if (filter.clientStatusId !== undefined) out.set(KEYS.status, String(filter.clientStatusId));
  if (pageSize !== pageSizes[0]) out.set(KEYS.pageSize, String(pageSize));
  if (page > 1) out.set(KEYS.page, String(page));
  return out;
}
