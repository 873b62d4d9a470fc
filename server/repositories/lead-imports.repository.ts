import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { createLeadFillsRepository } from './lead-fills.repository';

type Trx = Kysely<Database>;

/** An import's counts as the history shows them (issue 19). */
export interface ImportCounts {
  totalRows: number;
  inserted: number;
  duplicatesInFile: number;
  duplicatesInSystem: number;
  /** Leads whose empty fields the import filled (only when told to update duplicates). */
  updated: number;
  invalid: number;
  warnings: number;
  assigned: { email: string; count: number }[];
}

export interface ImportRecord extends ImportCounts {
  id: number;
  createdAt: string;
  createdBy: string;
  fileName: string;
  hasRejectedRows: boolean;
  undoneAt: string | null;
}

export function createLeadImportsRepository(db: Kysely<Database>) {
  const fills = createLeadFillsRepository(db);
  return {
    /** Opens an import's record inside its transaction; its leads carry the id. */
    async create(
      fields: { createdAt: string; createdBy: number; fileName: string },
      trx: Trx,
    ): Promise<number> {
      const row = await trx
        .insertInto('lead_imports')
        .values({
          created_at: fields.createdAt,
          created_by: fields.createdBy,
          file_name: fields.fileName,
          assigned: '[]',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async setCounts(id: number, counts: ImportCounts, trx: Trx): Promise<void> {
      await trx
        .updateTable('lead_imports')
        .set({
          total_rows: counts.totalRows,
          inserted: counts.inserted,
          duplicates_in_file: counts.duplicatesInFile,
          duplicates_in_system: counts.duplicatesInSystem,
          updated: counts.updated,
          invalid: counts.invalid,
          warnings: counts.warnings,
          assigned: JSON.stringify(counts.assigned),
        })
        .where('id', '=', id)
        .execute();
    },

    async setRejectedFile(id: number, file: Buffer): Promise<void> {
      await db.updateTable('lead_imports').set({ rejected_file: file }).where('id', '=', id).execute();
    },

    /** Newest first. */
    async list(limit: number): Promise<ImportRecord[]> {
      const rows = await db
        .selectFrom('lead_imports')
        .innerJoin('users', 'users.id', 'lead_imports.created_by')
        .select([
          'lead_imports.id',
          'lead_imports.created_at',
          'users.email',
          'lead_imports.file_name',
          'lead_imports.total_rows',
          'lead_imports.inserted',
          'lead_imports.duplicates_in_file',
          'lead_imports.duplicates_in_system',
          'lead_imports.updated',
          'lead_imports.invalid',
          'lead_imports.warnings',
          'lead_imports.assigned',
          'lead_imports.undone_at',
          (eb) => eb('lead_imports.rejected_file', 'is not', null).as('has_file'),
        ])
        .orderBy('lead_imports.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        createdAt: r.created_at,
        createdBy: r.email,
        fileName: r.file_name,
        totalRows: Number(r.total_rows),
        inserted: Number(r.inserted),
        duplicatesInFile: Number(r.duplicates_in_file),
        duplicatesInSystem: Number(r.duplicates_in_system),
        updated: Number(r.updated),
        invalid: Number(r.invalid),
        warnings: Number(r.warnings),
        assigned: JSON.parse(r.assigned) as ImportCounts['assigned'],
        // SQLite answers 0/1, PostgreSQL a boolean.
        hasRejectedRows: Boolean(r.has_file),
        undoneAt: r.undone_at,
      }));
    },

    async rejectedFile(id: number): Promise<Buffer | null | undefined> {
      const row = await db
        .selectFrom('lead_imports')
        .select('rejected_file')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      return row.rejected_file ? Buffer.from(row.rejected_file) : null;
    },

    /**
     * Undo (issue 19): soft-deletes the import's live leads that nobody has worked (no status
     * record, note or reminder), as deleting a lead does, empties the fields it filled on
     * existing leads where they still hold its values, and marks the import undone. Answers how
     * many went, how many stayed because they were worked, and how many existing leads had
     * fields emptied. Null when the import is unknown, 'undone' when it was undone before.
     */
    async undo(
      id: number,
      now: string,
    ): Promise<{ removed: number; kept: number; restored: number } | null | 'undone'> {
      return db.transaction().execute(async (trx) => {
        const record = await trx
          .selectFrom('lead_imports')
          .select('undone_at')
          .where('id', '=', id)
          .executeTakeFirst();
        if (!record) return null;
        if (record.undone_at !== null) return 'undone';
        const removed = await trx
          .updateTable('leads')
          .set({ deleted_at: now })
          .where('import_id', '=', id)
          .where('deleted_at', 'is', null)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('lead_statuses')
                  .select('lead_statuses.id')
                  .whereRef('lead_statuses.lead_id', '=', 'leads.id')
                  .unionAll(
                    selectFrom('lead_notes')
                      .select('lead_notes.id')
                      .whereRef('lead_notes.lead_id', '=', 'leads.id'),
                  )
                  .unionAll(
                    selectFrom('reminders')
                      .select('reminders.id')
                      .whereRef('reminders.lead_id', '=', 'leads.id'),
                  ),
              ),
            ),
          )
          .executeTakeFirst();
        const kept = await trx
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('import_id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow();
        const restored = await fills.undo(id, trx);
        await trx.updateTable('lead_imports').set({ undone_at: now }).where('id', '=', id).execute();
        return { removed: Number(removed.numUpdatedRows), kept: Number(kept.n), restored };
      });
    },

    /** Emails of these users, by id. */
    async emails(ids: readonly number[], trx: Trx): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await trx.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, r.email]));
    },
  };
}
export type LeadImportsRepository = ReturnType<typeof createLeadImportsRepository>;
