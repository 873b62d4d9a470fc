import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Trx = Kysely<Database>;

// Issue 19: an import told to update duplicates fills the empty fields of the lead that already
// holds a row's phone, and never overwrites one that has a value. What it filled is logged in
// lead_import_fills, so that undo can empty exactly those fields again.

/** The lead columns an import may fill; the phone is the match, so it is never one. */
export const FILLABLE = [
  'name',
  'email',
  'configuration',
  'interested_in',
  'site_visit',
  'location',
  'visit_date_time',
] as const;
export type Fillable = (typeof FILLABLE)[number];
export type FillValues = Partial<Record<Fillable, string>>;

/** A row of the file, by phone, with the values it would bring (empty = nothing to bring). */
export interface FillCandidate {
  phone: string;
  values: Record<Fillable, string>;
}

export interface PlannedFill {
  leadId: number;
  fields: FillValues;
}

/** Rows read per query: well under SQLite's and PostgreSQL's bound-parameter limits. */
const BATCH = 500;

const isEmpty = (value: string | null) => value === null || value === '';

export function createLeadFillsRepository(db: Kysely<Database>) {
  return {
    /**
     * What filling would change: for each candidate whose live lead has an empty field the row
     * has a value for, the lead and those fields. Candidates with nothing to bring are left out.
     */
    async plan(
      candidates: readonly FillCandidate[],
      trx: Trx = db,
      between?: () => Promise<void>,
    ): Promise<Map<string, PlannedFill>> {
      const planned = new Map<string, PlannedFill>();
      for (let start = 0; start < candidates.length; start += BATCH) {
        const part = candidates.slice(start, start + BATCH);
        const leads = await trx
          .selectFrom('leads')
          .select(['id', 'phone', ...FILLABLE])
          .where('deleted_at', 'is', null)
          .where(
            'phone',
            'in',
            part.map((c) => c.phone),
          )
          .execute();
        const byPhone = new Map(leads.map((l) => [l.phone, l]));
        for (const candidate of part) {
          const lead = byPhone.get(candidate.phone);
          if (!lead || planned.has(candidate.phone)) continue;
          const fields: FillValues = {};
          for (const column of FILLABLE) {
            const value = candidate.values[column];
            if (value !== '' && isEmpty(lead[column])) fields[column] = value;
          }
          if (Object.keys(fields).length > 0) planned.set(candidate.phone, { leadId: lead.id, fields });
        }
        await between?.();
      }
      return planned;
    },

    /**
     * Fills the planned fields and logs them for the import. Each field is written only while it
     * is still empty, so an edit made between the plan and here is never overwritten.
     */
    async apply(
      importId: number,
      fills: readonly PlannedFill[],
      at: string,
      trx: Trx,
      between?: () => Promise<void>,
    ): Promise<void> {
      for (let start = 0; start < fills.length; start += BATCH) {
        const part = fills.slice(start, start + BATCH);
        for (const { leadId, fields } of part) {
          await trx
            .updateTable('leads')
            .set((eb) =>
              Object.fromEntries(
                Object.entries(fields).map(([column, value]) => {
                  const c = column as Fillable;
                  const empty = c === 'visit_date_time' ? eb(c, 'is', null) : eb(c, '=', '');
                  return [c, eb.case().when(empty).then(value).else(eb.ref(c)).end()];
                }),
              ),
            )
            .where('id', '=', leadId)
            .execute();
        }
        await trx
          .insertInto('lead_import_fills')
          .values(
            part.map((f) => ({
              import_id: importId,
              lead_id: f.leadId,
              fields: JSON.stringify(f.fields),
              at,
            })),
          )
          .execute();
        await between?.();
      }
    },

    /**
     * Undo of the fills (issue 19): empties each field the import filled on a live lead while it
     * still holds the value the import wrote; a field someone changed since is kept. Answers how
     * many leads had a field emptied.
     */
    async undo(importId: number, trx: Trx): Promise<number> {
      const rows = await trx
        .selectFrom('lead_import_fills')
        .innerJoin('leads', 'leads.id', 'lead_import_fills.lead_id')
        .select(['lead_import_fills.lead_id', 'lead_import_fills.fields'])
        .where('lead_import_fills.import_id', '=', importId)
        .where('leads.deleted_at', 'is', null)
        .execute();
      let restored = 0;
      for (const row of rows) {
        const fields = JSON.parse(row.fields) as FillValues;
        const result = await trx
          .updateTable('leads')
          .set((eb) =>
            Object.fromEntries(
              Object.entries(fields).map(([column, value]) => {
                const c = column as Fillable;
                const empty = c === 'visit_date_time' ? null : '';
                return [c, eb.case().when(c, '=', value).then(empty).else(eb.ref(c)).end()];
              }),
            ),
          )
          .where('id', '=', row.lead_id)
          // Only a lead that still holds at least one of the values is counted as restored.
          .where((eb) => eb.or(Object.entries(fields).map(([c, value]) => eb(c as Fillable, '=', value))))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) > 0) restored += 1;
      }
      return restored;
    },
  };
}
export type LeadFillsRepository = ReturnType<typeof createLeadFillsRepository>;
