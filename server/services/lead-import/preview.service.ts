import type { ColumnMeaning, ImportMapping, ImportPreview } from '../../../contract/import-wizard';
import { wizardMessages } from '../../../contract/import-wizard';
import type { FillCandidate, LeadFillsRepository } from '../../repositories/lead-fills.repository';
import type { LeadsRepository } from '../../repositories/leads.repository';
import type { Zone } from '../agency-time';
import { type ColumnMap, type LeadField, normaliseHeader } from './columns';
import { checkSpreadsheet } from './file-check';
import { fillCandidate, type ImportLimits } from './import.service';
import type { ParseWorkers } from './parse-workers';
import type { FoundLayout } from './protocol';
import type { RowMapping } from './rows';

// The import wizard's dry run (issue 19): the file goes through the same worker and the same
// row rules as a commit, every row of it, and its phones are checked against the live leads;
// nothing is written. The counts are exact, the samples the first ten rows that would be stored.

const SAMPLE_ROWS = 10;

/** The wizard's column meanings as the row rules take them. */
export function rowMapping(mapping: ImportMapping | undefined): { sheet?: number; mapping: RowMapping } {
  const rules: RowMapping = { monthFirst: mapping?.dateFormat === 'monthFirst' };
  if (mapping?.columns) {
    const columns: ColumnMap = {};
    mapping.columns.forEach((meaning, i) => {
      if (meaning !== 'ignored' && columns[meaning] === undefined) columns[meaning] = i;
    });
    rules.columns = columns;
  }
  return { sheet: mapping?.sheet, mapping: rules };
}

/** Each header cell's meaning under a layout's columns. */
export function meanings(layout: FoundLayout): ColumnMeaning[] {
  const byColumn = new Map<number, LeadField>();
  for (const [field, i] of Object.entries(layout.columns) as [LeadField, number][]) byColumn.set(i, field);
  const width = Math.max(layout.header.length, ...[...byColumn.keys()].map((i) => i + 1));
  return Array.from({ length: width }, (_, i) => byColumn.get(i) ?? 'ignored');
}

/** The same export gives the same headers: the key its remembered mapping is kept under. */
export function headerKey(header: readonly string[]): string {
  return header.map(normaliseHeader).join('|');
}

interface Deps {
  workers: ParseWorkers;
  leads: LeadsRepository;
  fills: LeadFillsRepository;
  limits: ImportLimits;
}

export function createImportPreviewService({ workers, leads, fills, limits }: Deps) {
  return {
    async preview(request: {
      draftId: number;
      bytes: Buffer;
      fileName: string;
      zone: Zone;
      mapping?: ImportMapping;
      remembered?: boolean;
    }): Promise<ImportPreview & { layout: FoundLayout }> {
      const kind = checkSpreadsheet(request.bytes, request.fileName, limits);
      const { sheet: sheetIndex, mapping } = rowMapping(request.mapping);
      // A preview shows even a sheet whose headers were not recognised: the admin maps them.
      if (!mapping.columns) mapping.lenient = true;
      const job = workers.start();
      try {
        const { sheet, layout } = await job.start(request.bytes, {
          maxRows: limits.maxRows,
          zone: request.zone,
          kind,
          sheet: sheetIndex,
          mapping,
        });
        const update = request.mapping?.duplicates === 'update';
        const samples: ImportPreview['samples'] = [];
        // Read while the worker parses on: the phones live leads hold now.
        const known = await leads.livePhones();
        let fresh = 0;
        let warnings = 0;
        let heldCount = 0;
        /** The held rows' values, to count the leads they would fill (update mode only). */
        const held: FillCandidate[] = [];
        const chunks = job.chunks();
        for (;;) {
          const next = await chunks.next();
          if (next.done) {
            const summary = next.value;
            const updated = update ? (await fills.plan(held)).size : 0;
            return {
              draftId: request.draftId,
              fileName: request.fileName,
              sheet: {
                index: layout.sheetIndex,
                name: sheet.name,
                sheets: sheet.sheets,
                why:
                  layout.columns.name === undefined || layout.columns.phone === undefined
                    ? wizardMessages.whyUnknown
                    : kind === 'csv'
                      ? wizardMessages.whyCsv
                      : sheetIndex === undefined || request.remembered
                        ? wizardMessages.whyFirst
                        : wizardMessages.whyChosen,
              },
              headerRow: layout.headerRow + 1,
              columns: meanings(layout).map((meaning, i) => ({ header: layout.header[i] ?? '', meaning })),
              dateFormat: mapping.monthFirst ? 'monthFirst' : 'dayFirst',
              duplicates: update ? 'update' : 'skip',
              remembered: request.remembered === true,
              samples,
              counts: {
                totalRows: summary.totalRows,
                inserted: fresh,
                duplicatesInFile: summary.duplicatesInFile,
                duplicatesInSystem: heldCount - updated,
                updated,
                invalid: summary.invalidCount - summary.duplicatesInFile,
                warnings,
              },
              layout,
            };
          }
          const rows = next.value;
          for (let i = 0; i < rows.count; i++) {
            if (!known.has(rows.phone[i]!)) {
              fresh += 1;
              if (rows.note[i] !== '') warnings += 1;
            } else {
              heldCount += 1;
              if (update) held.push(fillCandidate(rows, i));
            }
            if (samples.length < SAMPLE_ROWS) {
              samples.push({
                row: rows.row[i]! + 1,
                name: rows.name[i]!,
                phone: rows.phone[i]!,
                email: rows.email[i]!,
                configuration: rows.configuration[i]!,
                interestedIn: rows.interestedIn[i]!,
                siteVisit: rows.siteVisit[i]!,
                location: rows.location[i]!,
                visitDateTime: rows.visitDateTime[i] || null,
                note: rows.note[i]!,
              });
            }
          }
        }
      } finally {
        job.close();
      }
    },
  };
}
export type ImportPreviewService = ReturnType<typeof createImportPreviewService>;
