import type { HistoryEntry } from '../../../../contract/lead-status';
import { api } from '../../../lib/api-client';

/** The lead's saved notes, newest first (DESIGN.md §2). */
export const getNoteHistory = (leadId: number) =>
  api.get(`LeadStatus/leads/${leadId}/history`).json<HistoryEntry[]>();
