import type { Kysely } from 'kysely';
import { adminMessages as am } from '../../../contract/admin';
import type { Database, NewLead } from '../../db/schema';
import type { FillCandidate, LeadFillsRepository } from '../../repositories/lead-fills.repository';
import type { LeadsRepository } from '../../repositories/leads.repository';
import type { LoadBalancer } from '../assignment.service';
import type { RowColumns } from './protocol';
import type { Rejection } from './row-rules';

// One chunk of an import's valid rows, inside the import's transaction (import.service.ts): skip
// or fill the phones live leads hold, pick assignees, insert, and tally what happened.

type Trx = Kysely<Database>;
type HolderLookup = (phones: readonly string[]) => Promise<Map<string, string>>;

/** Lets queued requests (stats, lists) run between the batches of a long import. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function newLead(
  rows: RowColumns,
  i: number,
  assignee: number | null,
  now: string,
  actorId: number,
  importId: number,
): NewLead {
  return {
    name: rows.name[i]!,
    email: rows.email[i]!,
    phone: rows.phone[i]!,
    visit_date_time: rows.visitDateTime[i] || null,
    configuration: rows.configuration[i]!,
    site_visit: rows.siteVisit[i]!,
    location: rows.location[i]!,
    interested_in: rows.interestedIn[i]!,
    assigned_to_id: assignee,
    assigned_date: assignee === null ? null : now,
    created_at: now,
    created_by: actorId,
    import_id: importId,
    import_note: rows.note[i]!,
  };
}

/** A row's values as the fields of an existing lead it could fill. */
export function fillCandidate(rows: RowColumns, i: number): FillCandidate {
  return {
    phone: rows.phone[i]!,
    values: {
      name: rows.name[i]!,
      email: rows.email[i]!,
      configuration: rows.configuration[i]!,
      interested_in: rows.interestedIn[i]!,
      site_visit: rows.siteVisit[i]!,
      location: rows.location[i]!,
      visit_date_time: rows.visitDateTime[i] ?? '',
    },
  };
}

export interface Tally {
  inserted: number;
  assigned: number;
  raced: number;
  /** Rows rejected here: phones live leads hold. */
  rejected: Rejection[];
  /** Leads whose empty fields a held row filled. */
  updated: number;
  /** Inserted rows the import noted something about. */
  warnings: number;
  /** Leads auto-assign gave each employee, by id. */
  perEmployee: Map<number, number>;
}

export function createChunkImporter({
  leads,
  fills,
}: {
  leads: LeadsRepository;
  fills: LeadFillsRepository;
}) {
  /**
   * Which phones live leads hold, and whose they are. Against a table not much bigger than the
   * upload, one read of every live phone beats a hundred IN lists; against a big table the IN
   * lists (one index probe per phone) win.
   */
  async function holderLookup(uploadRows: number, trx: Trx): Promise<HolderLookup> {
    const live = await leads.countLive(trx);
    if (live > 2 * uploadRows + 10_000) return (phones) => leads.phoneHolders(phones, trx, yieldToEventLoop);
    const known = await leads.livePhones(trx);
    return async (phones) => {
      const held = phones.filter((p) => known.has(p));
      return held.length > 0 ? leads.phoneHolders(held, trx) : new Map();
    };
  }

  /** One chunk of valid rows: skip held phones, pick assignees, insert. */
  async function importChunk(
    rows: RowColumns,
    trx: Trx,
    ctx: {
      holders: HolderLookup;
      balancer: LoadBalancer | null;
      now: string;
      actorId: number;
      importId: number;
      tally: Tally;
      update: boolean;
    },
  ): Promise<void> {
    const { tally, balancer } = ctx;
    const held = await ctx.holders(rows.phone);
    const fresh: number[] = [];
    const heldRows: number[] = [];
    for (let i = 0; i < rows.count; i++) {
      if (held.has(rows.phone[i]!)) heldRows.push(i);
      else fresh.push(i);
    }
    const filled = ctx.update ? await fillHeld(rows, heldRows, trx, ctx) : new Set<string>();
    for (const i of heldRows) {
      const phone = rows.phone[i]!;
      if (!filled.has(phone))
        tally.rejected.push({ row: rows.row[i]!, reason: am.duplicatePhone(held.get(phone)!) });
    }
    const assignees = fresh.map(() => balancer?.next() ?? null);
    const inserted = await leads.insertMany(
      fresh.map((i, n) => newLead(rows, i, assignees[n]!, ctx.now, ctx.actorId, ctx.importId)),
      trx,
      yieldToEventLoop,
    );
    const raced: number[] = [];
    fresh.forEach((i, n) => {
      const assignee = assignees[n]!;
      if (inserted.has(rows.phone[i]!)) {
        if (rows.note[i] !== '') tally.warnings += 1;
        if (assignee !== null) {
          tally.assigned += 1;
          tally.perEmployee.set(assignee, (tally.perEmployee.get(assignee) ?? 0) + 1);
        }
      } else {
        // Another import or add took the phone after the check above.
        raced.push(i);
        if (assignee !== null) balancer?.release(assignee);
      }
    });
    tally.inserted += inserted.size;
    if (raced.length > 0) {
      tally.raced += raced.length;
      const racedHolders = await leads.phoneHolders(
        raced.map((i) => rows.phone[i]!),
        trx,
      );
      for (const i of raced) {
        tally.rejected.push({
          row: rows.row[i]!,
          reason: am.duplicatePhone(racedHolders.get(rows.phone[i]!) ?? ''),
        });
      }
    }
  }

  /** Fills the empty fields of the leads holding these rows' phones; answers the phones filled. */
  async function fillHeld(
    rows: RowColumns,
    heldRows: readonly number[],
    trx: Trx,
    ctx: { importId: number; now: string; tally: Tally },
  ): Promise<Set<string>> {
    if (heldRows.length === 0) return new Set();
    const planned = await fills.plan(
      heldRows.map((i) => fillCandidate(rows, i)),
      trx,
      yieldToEventLoop,
    );
    await fills.apply(ctx.importId, [...planned.values()], ctx.now, trx, yieldToEventLoop);
    ctx.tally.updated += planned.size;
    return new Set(planned.keys());
  }

  return { holderLookup, importChunk };
}
