import { sameStatusName } from '../../../../contract/lead-status-rules';
import { type ClientStatusOption, defaultClientStatuses } from '../../../../contract/options';
import { normalisePhone } from '../../../../contract/phone';
import type { CachedLead } from '../../../lib/db';

export const NEW_LEADS = 'New Leads';

export interface BoardColumn {
  /** Stable id for drag and drop: the column's name. */
  id: string;
  title: string;
  /** The client status a lead dropped here gets; null for New Leads. */
  clientStatusId: number | null;
  leads: CachedLead[];
}

// Spec §9: when nothing matches, the status id falls back to 1.
const FALLBACK_STATUS_ID = 1;

/** The status columns: one per client status from the server, or the four defaults (spec §2, §4). */
export function statusColumns(
  clientStatuses: readonly ClientStatusOption[] | undefined,
): ClientStatusOption[] {
  if (clientStatuses && clientStatuses.length > 0) return [...clientStatuses];
  return defaultClientStatuses.map((name, i) => ({ clientStatusId: i + 1, clientStat: name }));
}

/** Spec §4: a column name maps to a client status id by case-insensitive, trimmed match. */
export function clientStatusIdFor(columnName: string, clientStatuses: readonly ClientStatusOption[]): number {
  return (
    clientStatuses.find((s) => sameStatusName(s.clientStat, columnName))?.clientStatusId ?? FALLBACK_STATUS_ID
  );
}

/**
 * Every lead in exactly one column (DESIGN.md §5): New Leads for a lead with no status record,
 * else the column of its status. A status no column knows also stays in New Leads, so no card
 * is ever hidden.
 */
export function buildColumns(
  leads: readonly CachedLead[],
  statuses: readonly ClientStatusOption[],
): BoardColumn[] {
  const columns: BoardColumn[] = [
    { id: NEW_LEADS, title: NEW_LEADS, clientStatusId: null, leads: [] },
    ...statuses.map((s) => ({
      id: s.clientStat,
      title: s.clientStat,
      clientStatusId: s.clientStatusId,
      leads: [],
    })),
  ];
  const sorted = [...leads].sort(
    (a, b) => (b.assignedDate ?? '').localeCompare(a.assignedDate ?? '') || b.leadID - a.leadID,
  );
  for (const lead of sorted) {
    const target =
      (lead.status && columns.find((c, i) => i > 0 && sameStatusName(c.title, lead.status!))) || columns[0]!;
    target.leads.push(lead);
  }
  return columns;
}

export function columnOf(lead: CachedLead, columns: readonly BoardColumn[]): BoardColumn | undefined {
  return columns.find((c) => c.leads.some((l) => l.leadID === lead.leadID));
}

/** Spec §2: the welcome header shows the local part of the email, capitalised. */
export function welcomeName(email: string): string {
  const local = email.split('@')[0] ?? '';
  return local.charAt(0).toUpperCase() + local.slice(1);
}

/** A WhatsApp chat with the lead (spec §2), India's country code for a 10-digit number, and a short greeting. */
export function whatsAppLink(phone: string, leadName: string): string | null {
  const ten = normalisePhone(phone);
  const digits = ten ? `91${ten}` : phone.replace(/\D/g, '');
  if (digits.length < 8) return null;
  const greeting = `Hello ${leadName.trim() || 'there'}, this is about your property enquiry with us. Is now a good time to talk?`;
  return `https://wa.me/${digits}?text=${encodeURIComponent(greeting)}`;
}

export function telLink(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
