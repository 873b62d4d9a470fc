import type { LeadStats } from '../../../../contract/admin';
import type { Employee } from '../../../../contract/leads';
import type { ClientStatusOption } from '../../../../contract/options';
import { api } from '../../../lib/api-client';

// The filters' choices, from the endpoints the dashboard and the board already read. Each is
// async: a request that cannot even be built (a bad URL) rejects rather than throws.

export async function fetchEmployees(signal?: AbortSignal): Promise<Employee[]> {
  return api.get('Admin/employees', signal ? { signal } : {}).json<Employee[]>();
}

/** The campaigns with leads, from the dashboard's counts (an empty campaign is NO_CAMPAIGN). */
export async function fetchCampaigns(signal?: AbortSignal): Promise<string[]> {
  const stats = await api.get('Admin/stats', signal ? { signal } : {}).json<LeadStats>();
  return stats.perCampaign.map((c) => c.siteVisit);
}

export async function fetchClientStatuses(signal?: AbortSignal): Promise<ClientStatusOption[]> {
  return api.get('LeadStatus/client-statuses', signal ? { signal } : {}).json<ClientStatusOption[]>();
}
