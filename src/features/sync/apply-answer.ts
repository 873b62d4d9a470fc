import type { Lead } from '../../../contract/leads';
import type { LeadNestDb, OutboxRow } from '../../lib/db';
import type { RowAnswer } from './api/send-row';
import { rebuildLead } from './outbox';

// What a server's answer to an outbox row does to the device's own database (DESIGN.md §5), for
// the one-row and the batched sync alike.

/**
 * A row the server took: it leaves the outbox and the cached lead (or reminders) take the
 * server's answer; a lead added offline gets its real id in every row that still names the
 * temporary one. One transaction, so the board never shows a half-applied answer.
 */
export async function applyAnswer(db: LeadNestDb, row: OutboxRow, answer: RowAnswer): Promise<void> {
  await db.transaction('rw', db.outbox, db.leads, db.meta, async () => {
    await db.outbox.delete(row.id);
    switch (answer.kind) {
      case 'status':
      case 'note': {
        const cached = await db.leads.get(row.leadId);
        const base: Lead | null = cached?.base
          ? { ...cached.base, status: answer.body.status, leadStatusId: answer.body.leadStatusId }
          : null;
        await rebuildLead(db, row.leadId, base);
        break;
      }
      case 'reminder': {
        const list = (await db.getMeta('reminders')) ?? [];
        const others = list.filter((r) => r.reminderId !== answer.body.reminderId);
        const next = [...others, answer.body].sort((a, b) => a.reminderTime.localeCompare(b.reminderTime));
        await db.setMeta('reminders', next);
        // A done or snooze made while this reminder waited on the device now names its real id.
        const updates = await db.outbox.where('leadId').equals(row.leadId).toArray();
        for (const r of updates)
          if (r.kind === 'reminder-update' && r.payload.reminderId === row.id)
            await db.outbox.update(r.id, { payload: { ...r.payload, reminderId: answer.body.reminderId } });
        await rebuildLead(db, row.leadId);
        break;
      }
      case 'reminder-update': {
        const list = (await db.getMeta('reminders')) ?? [];
        await db.setMeta(
          'reminders',
          list
            .map((r) => (r.reminderId === answer.body.reminderId ? answer.body : r))
            .sort((a, b) => a.reminderTime.localeCompare(b.reminderTime)),
        );
        await rebuildLead(db, row.leadId);
        break;
      }
      case 'lead': {
        // The server's id replaces the temporary one everywhere it was used.
        const realId = answer.body.leadID;
        const later = await db.outbox.where('leadId').equals(row.leadId).toArray();
        for (const r of later) {
          const payload = 'leadId' in r.payload ? { ...r.payload, leadId: realId } : r.payload;
          await db.outbox.update(r.id, { leadId: realId, payload });
        }
        await db.leads.delete(row.leadId);
        await rebuildLead(db, realId, answer.body);
        break;
      }
    }
  });
}

/** A row the server refused for good. */
export async function setAside(
  db: LeadNestDb,
  row: OutboxRow,
  outcome: { type: 'needs-note' | 'attention'; message: string },
): Promise<void> {
  await db.transaction('rw', db.outbox, db.leads, async () => {
    // A move the server wants a note for is dropped; anything else waits, editable, so no typed text is lost.
    if (outcome.type === 'needs-note') await db.outbox.delete(row.id);
    else await db.outbox.update(row.id, { state: 'attention', error: outcome.message });
    await rebuildLead(db, row.leadId);
  });
}
