import type { CachedLead, OutboxRow } from '../../../lib/db';

/**
 * Whether a move of this lead must come with a first note (DESIGN.md §5: the first status of a
 * lead is created by a note). The device knows it when the server copy has no status record
 * and no note waiting on the device will create one; then the board asks for the note at the
 * moment of the move instead of sending a move the server can only refuse.
 */
export function needsFirstNote(lead: CachedLead, rows: readonly OutboxRow[]): boolean {
  if (lead.base?.leadStatusId != null) return false;
  return !rows.some(
    (row) =>
      row.leadId === lead.leadID &&
      row.state === 'pending' &&
      (row.kind === 'note' ||
        (row.kind === 'status' && typeof row.payload.notes === 'string' && row.payload.notes.trim() !== '')),
  );
}
