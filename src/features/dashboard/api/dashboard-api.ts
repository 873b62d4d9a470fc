import type { AssignResponse, LeadStats } from '../../../../contract/admin';
import type { Employee, Lead } from '../../../../contract/leads';
import { TOTAL_COUNT_HEADER } from '../../../../contract/leads-paging';
import { api } from '../../../lib/api-client';

/** What a dashboard table row shows (spec §2); the rest of the lead JSON is dropped on arrival. */
export interface LeadRow {
  leadID: number;
  name: string;
  phoneNo: string;
  visitDateTime: string | null;
  configuration: string;
  siteVisit: string;
  assignedTo: string;
}

export interface LeadsPage {
  rows: LeadRow[];
  total: number;
}

const toRow = (lead: Lead): LeadRow => ({
  leadID: lead.leadID,
  name: lead.name,
  phoneNo: lead.phoneNo,
  visitDateTime: lead.visitDateTime,
  configuration: lead.configuration,
  siteVisit: lead.siteVisit,
  assignedTo: lead.assignedTo,
});

/**
 * One page of `GET /Admin/unassigned` (default view) or `GET /Admin/leads` (Show All), the leads
 * after `afterId`, with the list's total from X-Total-Count.
 */
export async function fetchLeadsPage(
  showAll: boolean,
  afterId: number,
  pageSize: number,
  signal: AbortSignal,
): Promise<LeadsPage> {
  const response = await api.get(showAll ? 'Admin/leads' : 'Admin/unassigned', {
    searchParams: { afterId, pageSize },
    signal,
    // Pages of 5,000 leads on a slow link take a while; the abort signal ends them when needed.
    timeout: 60_000,
  });
  const leads = await response.json<Lead[]>();
  return { rows: leads.map(toRow), total: Number(response.headers.get(TOTAL_COUNT_HEADER) ?? leads.length) };
}

// async: a request that cannot even be built (a bad URL) rejects like any other failure.
export async function fetchStats(): Promise<LeadStats> {
  return api.get('Admin/stats').json<LeadStats>();
}

export async function fetchEmployees(): Promise<Employee[]> {
  return api.get('Admin/employees').json<Employee[]>();
}

export async function assignLeads(employeeId: number, leadIds: number[]): Promise<AssignResponse> {
  return api.post('Admin/assign', { json: { employeeId, leadIds } }).json<AssignResponse>();
}
