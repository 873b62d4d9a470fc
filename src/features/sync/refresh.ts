import type { Lead } from '../../../contract/leads';
import type { LeadNestDb, OptionKey } from '../../lib/db';
import { fetchAssignedLeads, fetchOptions, fetchReminders } from './api/load';
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
 * Replaces the cached server copies with the server's answer and re-applies the rows still
 * waiting, in one transaction, so a refresh never undoes an unsynced move on screen.
 */
export async function storeServerLeads(db: LeadNestDb, leads: readonly Lead[]): Promise<void> {
  await db.transaction('rw', db.leads, db.outbox, db.meta, async () => {
    const fresh = new Set(leads.map((l) => l.leadID));
    // Leads with no waiting rows are the server copy as is: written in one bulk call, not three
    // IndexedDB requests each (2,000 leads took seconds on a first visit, issue 7).
    const waiting = new Set(await db.outbox.orderBy('leadId').uniqueKeys());
    // Only what changed is written: a write wakes every live query on the table, and a refresh
    // that finds nothing new (most of them) would redraw the whole board for nothing.
    const settled = leads.filter((lead) => !waiting.has(lead.leadID));
    const stored = await db.leads.bulkGet(settled.map((lead) => lead.leadID));
    await db.leads.bulkPut(
      settled
        .filter((lead, i) => {
          const known = stored[i];
          return !(known && known.pendingCount === 0 && known.attention === 0 && same(known.base, lead));
        })
        .map((lead) => ({ ...lead, base: lead, pendingCount: 0, attention: 0 as const })),
    );
    for (const lead of leads) if (waiting.has(lead.leadID)) await rebuildLead(db, lead.leadID, lead);
    // Leads no longer assigned to this employee leave the board; offline-added ones stay.
    const gone = await db.leads.filter((l) => l.leadID > 0 && !fresh.has(l.leadID)).primaryKeys();
    await db.leads.bulkDelete(gone);
    for (const row of await db.outbox.where('leadId').below(0).toArray()) await rebuildLead(db, row.leadId);
    await db.setMeta('leadsLoadedAt', Date.now());
  });
}

export async function refreshLeads(db: LeadNestDb): Promise<RefreshResult> {
  try {
    await storeServerLeads(db, await fetchAssignedLeads());
    return 'ok';
  } catch (error) {
    return isUnauthorized(error) ? 'auth' : 'failed';
  }
}

/** Option lists rarely change; a failure is only logged and the cached or default lists stay (spec §8). */
export async function refreshOptions(db: LeadNestDb): Promise<void> {
  const keys: OptionKey[] = ['callStatuses', 'clientStatuses', 'locations', 'configurations'];
  const answers = await Promise.all(
    keys.map(async (key) => {
      try {
        const items = await fetchOptions(key);
        return Array.isArray(items) ? { key, items } : null;
      } catch (error) {
        console.warn(`Could not load ${key}`, error);
        return null;
      }
    }),
  );
  // One write for the lists that changed, so the board redraws its columns at most once.
  try {
    const stored = await db.options.bulkGet(keys);
    const rows = answers.filter(
      (row, i): row is NonNullable<typeof row> => row !== null && !same(stored[i]?.items, row.items),
    );
    if (rows.length > 0) await db.options.bulkPut(rows);
  } catch (error) {
    console.warn('Could not store the option lists', error);
  }
}

export async function refreshReminders(db: LeadNestDb): Promise<void> {
  try {
    const reminders = await fetchReminders();
    if (!same(await db.getMeta('reminders'), reminders)) await db.setMeta('reminders', reminders);
  } catch (error) {
    console.warn('Could not load reminders', error);
  }
}
