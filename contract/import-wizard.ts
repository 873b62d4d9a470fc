import { z } from 'zod';
import type { UploadResponse } from './admin';

// The import wizard (issue 19): POST /api/Admin/imports keeps the file and answers a preview;
// POST /api/Admin/imports/{draftId}/preview answers it again for a mapping; and
// POST /api/Admin/imports/{draftId}/commit imports it with that mapping, answering as
// upload-leads does.

/** What a column of the sheet is read as. */
export const COLUMN_MEANINGS = [
  'name',
  'phone',
  'email',
  'configuration',
  'interestedIn',
  'siteVisit',
  'location',
  'visitDateTime',
  'ignored',
] as const;
export type ColumnMeaning = (typeof COLUMN_MEANINGS)[number];

export const columnMeaningLabels: Record<ColumnMeaning, string> = {
  name: 'Name',
  phone: 'Phone',
  email: 'Email',
  configuration: 'Configuration',
  interestedIn: 'Interested In',
  siteVisit: 'Site Visit (campaign)',
  location: 'Location',
  visitDateTime: 'Visit date and time',
  ignored: 'Ignored',
};

export const importMappingSchema = z.object({
  /** The sheet's index in the workbook; the first with Name and Phone headers when left out. */
  sheet: z.number().int().min(0).max(255).optional(),
  /** Each column's meaning, left to right from column A; the detected ones when left out. */
  columns: z.array(z.enum(COLUMN_MEANINGS)).max(256).optional(),
  /** Dates such as 05/01/2026 are day first (India) unless this says month first. */
  dateFormat: z.enum(['dayFirst', 'monthFirst']).default('dayFirst'),
  /**
   * A row whose phone a live lead holds is skipped (the spec's rule), or fills that lead's empty
   * fields; a field that has a value is never overwritten.
   */
  duplicates: z.enum(['skip', 'update']).default('skip'),
});
export type ImportMapping = z.input<typeof importMappingSchema>;

export const commitImportSchema = importMappingSchema.extend({ autoAssign: z.boolean().default(true) });

export interface ImportPreview {
  draftId: number;
  fileName: string;
  sheet: { index: number; name: string; sheets: string[]; why: string };
  /** The header row's number as the spreadsheet shows it (1 = the first row). */
  headerRow: number;
  columns: { header: string; meaning: ColumnMeaning }[];
  dateFormat: 'dayFirst' | 'monthFirst';
  duplicates: 'skip' | 'update';
  /** True when the mapping is the one remembered for these headers. */
  remembered: boolean;
  /** Up to 10 rows as they would be stored. */
  samples: {
    row: number;
    name: string;
    phone: string;
    email: string;
    configuration: string;
    interestedIn: string;
    siteVisit: string;
    location: string;
    visitDateTime: string | null;
    note: string;
  }[];
  /**
   * What a commit would do now, exact. Null when the preview was asked with `?counts=later` and
   * the file has more rows than the samples: ask again without it for the counts.
   */
  counts: {
    totalRows: number;
    inserted: number;
    duplicatesInFile: number;
    duplicatesInSystem: number;
    /** Held rows that would fill empty fields of their lead (duplicates: 'update'). */
    updated: number;
    invalid: number;
    warnings: number;
  } | null;
}

/** `?counts=later`: answer with the samples as soon as they are read, counts null (issue 19). */
export const previewQuerySchema = z.object({ counts: z.enum(['now', 'later']).default('now') });

/**
 * A commit asked with `Accept: application/x-ndjson` answers a line per moment (issue 19): the
 * rows below the header done so far, then upload-leads' answer, or the error that stopped it
 * (nothing is saved then). Without that header it answers the JSON as upload-leads does.
 */
export const COMMIT_STREAM_TYPE = 'application/x-ndjson';
export type CommitStreamLine =
  | { progress: { rowsDone: number } }
  | { answer: UploadResponse }
  | { error: { status: number; message: string } };

export const wizardMessages = {
  draftNotFound:
    'That upload is gone: it was imported already or is older than a day. Upload the file again.',
  whyFirst: 'The first sheet with Name and Phone columns.',
  whyChosen: 'The sheet you chose.',
  whyUnknown:
    'No sheet has columns the import knows as Name and Phone: the first is shown. Choose below which columns they are.',
  whyCsv: 'A CSV file has one sheet.',
};
