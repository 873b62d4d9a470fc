import type { Lead } from '../../../contract/leads';
import { messages } from '../../../contract/messages';
import type { SyncChanges } from '../../../contract/sync-batch';
import type { LeadNestDb, OptionKey, OptionRow } from '../../lib/db';
import { fetchAssignedLeads, fetchOptions, fetchReminders } from './api/load';
import { fetchChanges } from './api/send-batch';
import { rebuildLead } from './outbox';

export type RefreshResult = 'ok' | 'failed' | 'auth';

/** Same JSON (both come from the server's JSON, so their keys are in the same order). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isUnauthorized(error: unknown): boolean {
  return (error as { status?: number } | null)?.status === 401;
}

/**
 * A lead that left this employee (reassigned, deleted) leaves the device; a row still waiting
 * for it goes under "Needs attention" with its text kept, since the server would refuse it.
 */
async function releaseLead(db: LeadNestDb, leadId: number): Promise<void> {
  const waiting = await db.outbox.where('leadId').equals(leadId).toArray();
  for (const row of waiting) {
    if (row.state === 'pending') {
      await db.outbox.update(row.id, { state: 'attention', error: messages.board.leadReassigned });
    }
  }
  await db.leads.delete(leadId);
}

/** Writes server copies: leads with no waiting rows in one bulk call, only those that changed. */
async function putServerLeads(db: LeadNestDb, leads: readonly Lead[]): Promise<void> {
  // Leads with no waiting rows are the server copy as is: written in one bulk call, not three
  // IndexedDB requests each (2,000 leads took seconds on a first visit, issue 7).
  const waiting = new Set(await db.outbox.orderBy('leadId').uniqueKeys());
  // Only what changed is written: a write wakes every live query on the table, and a refresh
  // that finds nothing new (most of them) would redraw the whole board for nothing.
  const settled = leads.filter((lead) => !waiting.has(lead.leadID));
  const stored = await db.leads.bulkGet(settled.map((lead) => lead.leadID));
  const changed = settled.filter((lead, i) => {
    const known = stored[i];
    return !(known && known.pendingCount === 0 && known.attention === 0 && same(known.base, lead));
  });
  if (changed.length > 0) {
    await db.leads.bulkPut(
      changed.map((lead) => ({ ...lead, base: lead, pendingCount: 0, attention: 0 as const })),
    );
  }
  for (const lead of leads) if (waiting.has(lead.leadID)) await rebuildLead(db, lead.leadID, lead);
}

/**
 * Replaces the cached server copies with the server's answer and re-applies the rows still
 * waiting, in one transaction, so a refresh never undoes an unsynced move on screen. The delta
 * cursor is stored in the same transaction: it always describes the leads on the device.
 */
export async function storeServerLeads(
  db: LeadNestDb,
  leads: readonly Lead[],
  cursor?: string,
): Promise<void> {
  await db.transaction('rw', db.leads, db.outbox, db.meta, async () => {
    const fresh = new Set(leads.map((l) => l.leadID));
    await putServerLeads(db, leads);
    // Leads no longer assigned to this employee leave the board; offline-added ones stay.
    const gone = await db.leads.filter((l) => l.leadID > 0 && !fresh.has(l.leadID)).primaryKeys();
    for (const leadId of gone) await releaseLead(db, leadId);
    for (const row of await db.outbox.where('leadId').below(0).toArray()) await rebuildLead(db, row.leadId);
    await db.setMeta('leadsLoadedAt', Date.now());
    if (cursor !== undefined) await db.setMeta('syncCursor', cursor);
  });
}

/** Applies a delta of GET /api/sync/changes (issue 18): the changed leads, and the ones that left. */
export async function storeLeadChanges(db: LeadNestDb, changes: SyncChanges): Promise<void> {
  if (changes.full) return storeServerLeads(db, changes.leads, changes.cursor);
  await db.transaction('rw', db.leads, db.outbox, db.meta, async () => {
    await putServerLeads(db, changes.leads);
    for (const leadId of changes.removed) await releaseLead(db, leadId);
    await db.setMeta('leadsLoadedAt', Date.now());
    await db.setMeta('syncCursor', changes.cursor);
  });
}

const optionKeys: OptionKey[] = ['callStatuses', 'clientStatuses', 'locations', 'configurations'];

/** One write for the lists that changed, so the board redraws its columns at most once. */
async function storeOptions(db: LeadNestDb, answers: ({ key: OptionKey; items: unknown[] } | null)[]) {
  try {
    const stored = await db.options.bulkGet(optionKeys);
    const rows = answers.filter(
      (row, i): row is NonNullable<typeof row> => row !== null && !same(stored[i]?.items, row.items),
    );
    if (rows.length > 0) await db.options.bulkPut(rows as OptionRow[]);
  } catch (error) {
    console.warn('Could not store the option lists', error);
  }
}

/**
 * Brings the cached leads up to date: only what changed since the last refresh (GET
 * /api/sync/changes, with the option lists when they changed), or the whole list from a server
 * without that call.
 */
export async function refreshLeads(db: LeadNestDb): Promise<RefreshResult> {
  try {
    let changes: SyncChanges;
    try {
      changes = await fetchChanges(await db.getMeta('syncCursor'));
    } catch (error) {
      if ((error as { status?: number } | null)?.status !== 404) throw error;
      await storeServerLeads(db, await fetchAssignedLeads());
      await refreshOptions(db);
      return 'ok';
    }
    await storeLeadChanges(db, changes);
    const lists = changes.options;
    if (lists)
      await storeOptions(
        db,
        optionKeys.map((key) => ({ key, items: lists[key] })),
      );
    return 'ok';
  } catch (error) {
    return isUnauthorized(error) ? 'auth' : 'failed';
  }
}

/** Option lists rarely change; a failure is only logged and the cached or default lists stay (spec §8). */
export async function refreshOptions(db: LeadNestDb): Promise<void> {
  const answers = await Promise.all(
    optionKeys.map(async (key) => {
      try {
        const items = await fetchOptions(key);
        return Array.isArray(items) ? { key, items } : null;
      } catch (error) {
        console.warn(`Could not load ${key}`, error);
        return null;
      }
    }),
  );
  await storeOptions(db, answers);
}

export async function refreshReminders(db: LeadNestDb): Promise<void> {
  try {
    const reminders = await fetchReminders();
    if (!same(await db.getMeta('reminders'), reminders)) await db.setMeta('reminders', reminders);
  } catch (error) {
    console.warn('Could not load reminders', error);
  }
}
