import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** How long an uploaded file waits for its commit in the import wizard. */
export const DRAFT_HOURS = 24;

export interface ImportDraft {
  id: number;
  createdBy: number;
  fileName: string;
  file: Buffer;
}

// Files uploaded to the import wizard and the mappings remembered per header row (issue 19).
export function createImportDraftsRepository(db: Kysely<Database>) {
  return {
    /** Keeps the file for its preview and commit; drafts past their time go at the same moment. */
    async create(fields: { createdBy: number; fileName: string; file: Buffer }, now: Date): Promise<number> {
      const expired = new Date(now.getTime() - DRAFT_HOURS * 3600_000).toISOString();
      await db.deleteFrom('import_drafts').where('created_at', '<', expired).execute();
      const row = await db
        .insertInto('import_drafts')
        .values({
          created_at: now.toISOString(),
          created_by: fields.createdBy,
          file_name: fields.fileName,
          file: fields.file,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async find(id: number, now: Date): Promise<ImportDraft | undefined> {
      const expired = new Date(now.getTime() - DRAFT_HOURS * 3600_000).toISOString();
      const row = await db
        .selectFrom('import_drafts')
        .select(['id', 'created_by', 'file_name', 'file'])
        .where('id', '=', id)
        .where('created_at', '>=', expired)
        .executeTakeFirst();
      if (!row) return undefined;
      return { id: row.id, createdBy: row.created_by, fileName: row.file_name, file: Buffer.from(row.file) };
    },

    /** Once committed the file is the import's: the draft goes, so it cannot be committed twice. */
    async remove(id: number): Promise<boolean> {
      const result = await db.deleteFrom('import_drafts').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async rememberedMapping(headerKey: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('import_mappings')
        .select('mapping')
        .where('header_key', '=', headerKey)
        .executeTakeFirst();
      return row?.mapping;
    },

    async remember(headerKey: string, mapping: string, now: string): Promise<void> {
      await db
        .insertInto('import_mappings')
        .values({ header_key: headerKey, mapping, updated_at: now })
        .onConflict((oc) => oc.column('header_key').doUpdateSet({ mapping, updated_at: now }))
        .execute();
    },
  };
}
export type ImportDraftsRepository = ReturnType<typeof createImportDraftsRepository>;
