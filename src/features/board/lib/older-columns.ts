import { sameStatusName } from '../../../../contract/lead-status-rules';
import { defaultClientStatuses } from '../../../../contract/options';
import type { CachedLead } from '../../../lib/db';

/** The older board's four columns (spec §2): the status key it sends, and the title it shows. */
export interface OlderColumn {
  key: (typeof defaultClientStatuses)[number];
  title: string;
  leads: CachedLead[];
}

const titles: Record<OlderColumn['key'], string> = {
  Interested: 'Interested',
  'Site Visit': 'Site Visit Scheduled',
  Booking: 'Booking / Token Done',
  'Not Interested': 'Not Interested',
};

function keyFor(value: string | null | undefined): OlderColumn['key'] | undefined {
  return value ? defaultClientStatuses.find((key) => sameStatusName(key, value)) : undefined;
}

/**
 * Spec §4: a lead's status picks its column; a lead without one takes its interestedIn value,
 * else the first column. A status none of the four knows also lands first, so no card is hidden.
 */
export function olderColumnKey(lead: Pick<CachedLead, 'status' | 'interestedIn'>): OlderColumn['key'] {
  return (
    keyFor(lead.status) ?? (lead.status ? undefined : keyFor(lead.interestedIn)) ?? defaultClientStatuses[0]
  );
}

export function buildOlderColumns(leads: readonly CachedLead[]): OlderColumn[] {
  const columns = defaultClientStatuses.map((key) => ({
    key,
    title: titles[key],
    leads: [] as CachedLead[],
  }));
  const sorted = [...leads].sort(
    (a, b) => (b.assignedDate ?? '').localeCompare(a.assignedDate ?? '') || b.leadID - a.leadID,
  );
  for (const lead of sorted) {
    const key = olderColumnKey(lead);
    columns.find((c) => c.key === key)!.leads.push(lead);
  }
  return columns;
}

/** Spec §2: the older board greets with the local part of the stored email, as it is. */
export function emailLocalPart(email: string): string {
  return email.split('@')[0] ?? '';
}
