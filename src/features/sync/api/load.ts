import type { Reminder } from '../../../../contract/lead-status';
import type { Lead } from '../../../../contract/leads';
import { api } from '../../../lib/api-client';
import type { OptionKey, OptionLists } from '../../../lib/db';

/** An Employee gets only the leads assigned to them (DESIGN.md §3, filtered by the server). */
export const fetchAssignedLeads = () => api.get('Admin/leads').json<Lead[]>();

export const fetchReminders = () => api.get('LeadStatus/reminders').json<Reminder[]>();

const optionPaths: Record<OptionKey, string> = {
  callStatuses: 'LeadStatus/call-statuses',
  clientStatuses: 'LeadStatus/client-statuses',
  locations: 'LeadStatus/location-statuses',
  configurations: 'LeadStatus/Configuration-statuses',
};

export function fetchOptions<K extends OptionKey>(key: K): Promise<OptionLists[K]> {
  return api.get(optionPaths[key]).json<OptionLists[K]>();
}
