import type { LeadTimeline } from '../../../../contract/lead-timeline';
import { api } from '../../../lib/api-client';

export function fetchTimeline(leadId: number, signal?: AbortSignal): Promise<LeadTimeline> {
  return api.get(`Leads/${leadId}/timeline`, signal ? { signal } : {}).json<LeadTimeline>();
}
