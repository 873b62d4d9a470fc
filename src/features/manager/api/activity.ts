import type { Lead } from '../../../../contract/leads';
import type { ActivityAnswer } from '../../../../contract/manager';
import { api } from '../../../lib/api-client';

export function fetchActivity(from: Date, to: Date, signal?: AbortSignal): Promise<ActivityAnswer> {
  return api
    .get('Manager/activity', {
      searchParams: { from: from.toISOString(), to: to.toISOString() },
      ...(signal ? { signal } : {}),
    })
    .json<ActivityAnswer>();
}

export type DrillDown =
  | { kind: 'employee'; employeeId: number; label: string }
  | { kind: 'campaign'; siteVisit: string; label: string };

/** A drill-down's leads, from the lead list route with its filters (issue 17). */
export function fetchDrillDownLeads(target: DrillDown, signal?: AbortSignal): Promise<Lead[]> {
  const searchParams =
    target.kind === 'employee' ? { employeeId: target.employeeId } : { siteVisit: target.siteVisit };
  return api.get('Admin/leads', { searchParams, ...(signal ? { signal } : {}) }).json<Lead[]>();
}
