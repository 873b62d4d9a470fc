import type { Lead } from '../../../contract/leads';
import type { OutboxKind } from '../../../contract/sync';
import type { CachedLead, LeadNestDb, OutboxRow } from '../../lib/db';

let lastStamp = 0;

/** Date.now(), but never equal to or below the previous stamp, so rows keep the order they were made in. */
function stamp(): number {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return lastStamp;
}

/** The lead a "new lead" row stands for until the server answers with the real one. */
export function leadFromNewLeadRow(row: OutboxRow): Lead {
  const p = row.payload as {
    name?: string;
    phoneNo?: string;
    email?: string;
    assignedTo?: string;
    assignedDate?: string;
  };
  return {
    leadID: row.leadId,
    name: p.name ?? '',
    email: p.email ?? '',
    phoneNo: p.phoneNo ?? '',
    contactNo: p.phoneNo ?? '',
    visitDateTime: null,
    configuration: '',
    siteVisit: '',
    assignedTo: p.assignedTo ?? '',
    assignedDate: p.assignedDate ?? null,
    location: '',
    locationName: '',
    interestedIn: '',
    status: null,
    leadStatusId: null,
  };
}

/** The lead as the board should show it: the server copy with every still-pending row applied in order. */
export function applyRows(base: Lead | null, rows: readonly OutboxRow[]): Lead | null {
  let lead = base;
  for (const row of rows) {
    if (row.state !== 'pending') continue;
    if (row.kind === 'lead') {
      lead ??= leadFromNewLeadRow(row);
    } else if (lead && (row.kind === 'status' || row.kind === 'note') && row.statusName) {
      lead = { ...lead, status: row.statusName };
    }
  }
  return lead;
}

export async function rowsForLead(db: LeadNestDb, leadId: number): Promise<OutboxRow[]> {
  return db.outbox.where('leadId').equals(leadId).sortBy('createdAt');
}

/**
 * Recomputes one cached lead from its server copy plus its remaining rows. Called inside the
 * caller's transaction, so the card and the outbox never disagree.
 */
export async function rebuildLead(
  db: LeadNestDb,
  leadId: number,
  base?: Lead | null,
): Promise<CachedLead | null> {
  const cached = await db.leads.get(leadId);
  const serverCopy = base !== undefined ? base : (cached?.base ?? null);
  const rows = await rowsForLead(db, leadId);
  const view = applyRows(serverCopy, rows);
  if (!view) {
    await db.leads.delete(leadId);
    return null;
  }
  const next: CachedLead = {
    ...view,
    leadID: leadId,
    base: serverCopy,
    pendingCount: rows.filter((r) => r.state === 'pending').length,
    attention: rows.some((r) => r.state === 'attention') ? 1 : 0,
  };
  await db.leads.put(next);
  return next;
}

export interface NewRow {
  kind: OutboxKind;
  leadId: number;
  payload: Record<string, unknown>;
  leadName: string;
  statusName?: string | null;
}

/**
 * Records one employee write and applies it to the cached lead. One transaction over both
 * tables: a crash between the two would otherwise show a change that will never be sent.
 */
export async function enqueue(db: LeadNestDb, input: NewRow): Promise<OutboxRow> {
  const row: OutboxRow = {
    id: crypto.randomUUID(),
    kind: input.kind,
    leadId: input.leadId,
    payload: input.payload,
    statusName: input.statusName ?? null,
    leadName: input.leadName,
    createdAt: stamp(),
    attempts: 0,
    state: 'pending',
    nextAttemptAt: 0,
  };
  await db.transaction('rw', db.outbox, db.leads, async () => {
    await db.outbox.add(row);
    await rebuildLead(db, row.leadId);
  });
  return row;
}

/** A negative id for a lead added offline, unused by any cached lead or waiting row. */
export async function nextTemporaryLeadId(db: LeadNestDb): Promise<number> {
  const lowestLead = (await db.leads.orderBy('leadID').first())?.leadID ?? 0;
  const lowestRow = (await db.outbox.orderBy('leadId').first())?.leadId ?? 0;
  return Math.min(lowestLead, lowestRow, 0) - 1;
}

/** Adds a lead offline: the card appears at once with a temporary id (DESIGN.md §5). */
export async function enqueueNewLead(
  db: LeadNestDb,
  payload: {
    name: string;
    phoneNo: string;
    email: string;
    assignedTo: string;
    assignedDate: string;
    status?: string | null;
  },
): Promise<OutboxRow> {
  // Inside one transaction so two quick adds cannot pick the same temporary id.
  return db.transaction('rw', db.outbox, db.leads, async () => {
    const leadId = await nextTemporaryLeadId(db);
    return enqueue(db, { kind: 'lead', leadId, payload, leadName: payload.name });
  });
}

/** The user changed a refused row: it goes back in line under a new key (the old key's answer is stored). */
export async function editRow(
  db: LeadNestDb,
  id: string,
  payload: Record<string, unknown>,
  statusName?: string | null,
) {
  await db.transaction('rw', db.outbox, db.leads, async () => {
    const row = await db.outbox.get(id);
    if (!row) return;
    await db.outbox.delete(id);
    const newId = crypto.randomUUID();
    // A done or snooze waiting for this reminder follows it to its new key.
    if (row.kind === 'reminder')
      await db.outbox
        .where('leadId')
        .equals(row.leadId)
        .filter((r) => r.kind === 'reminder-update' && r.payload.reminderId === id)
        .modify((r) => {
          r.payload = { ...r.payload, reminderId: newId };
        });
    await db.outbox.add({
      ...row,
      id: newId,
      payload,
      statusName: statusName === undefined ? row.statusName : statusName,
      state: 'pending',
      error: undefined,
      attempts: 0,
      nextAttemptAt: 0,
    });
    await rebuildLead(db, row.leadId);
  });
}

/** Sends a refused row again as it is, under a new key (the server may have changed since). */
export async function retryRow(db: LeadNestDb, id: string): Promise<void> {
  const row = await db.outbox.get(id);
  if (row) await editRow(db, id, row.payload);
}

/** Drops a refused row. Dropping a new lead also drops the changes made to it. */
export async function discardRow(db: LeadNestDb, id: string): Promise<void> {
  await db.transaction('rw', db.outbox, db.leads, async () => {
    const row = await db.outbox.get(id);
    if (!row) return;
    if (row.kind === 'lead') await db.outbox.where('leadId').equals(row.leadId).delete();
    else await db.outbox.delete(id);
    // Dropping a reminder that never reached the server also drops its done or snooze.
    if (row.kind === 'reminder')
      await db.outbox
        .where('leadId')
        .equals(row.leadId)
        .filter((r) => r.kind === 'reminder-update' && r.payload.reminderId === id)
        .delete();
    await rebuildLead(db, row.leadId);
  });
}
