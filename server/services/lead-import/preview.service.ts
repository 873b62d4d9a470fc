import type { ColumnMeaning, ImportMapping, ImportPreview } from '../../../contract/import-wizard';
import { wizardMessages } from '../../../contract/import-wizard';
import type { FillCandidate, LeadFillsRepository } from '../../repositories/lead-fills.repository';
import type { LeadsRepository } from '../../repositories/leads.repository';
import type { Zone } from '../agency-time';
import { type ColumnMap, type LeadField, normaliseHeader } from './columns';
import { checkSpreadsheet } from './file-check';
import type { ImportLimits } from './import.service';
import { fillCandidate } from './import-chunk';
import type { ParseSummary, ParseWorkers } from './parse-workers';
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

/** The preview with its exact counts, as the dashboard asks for it after a quick one. */
export type FullPreview = ImportPreview & { layout: FoundLayout };

/** How long counts finished in the background wait to be asked for (the wizard asks at once). */
const KEEP_COUNTED_MS = 60_000;

/** The mapping as the wizard spells it out from a preview: the key of that preview's counts. */
function mappingKey(m: {
  sheet?: number;
  columns?: readonly string[];
  dateFormat?: string;
  duplicates?: string;
}): string {
  return JSON.stringify([
    m.sheet ?? null,
    m.columns ?? null,
    m.dateFormat ?? 'dayFirst',
    m.duplicates ?? 'skip',
  ]);
}

export function createImportPreviewService({ workers, leads, fills, limits }: Deps) {
  /**
   * Per draft, the counts a quick preview went on reading in the background, under the mapping
   * its answer spelled out: the wizard's next ask for exact counts takes them instead of reading
   * the file again (a second worker and a second pass, about the commit's time, measured in
   * docs/import.md). One per draft: a newer preview or the commit stops the older pass.
   */
  const counting = new Map<
    number,
    { key: string; by: number; preview: Promise<FullPreview>; stop: () => void }
  >();

  function forget(draftId: number): void {
    counting.get(draftId)?.stop();
    counting.delete(draftId);
  }

  return {
    /**
     * With `countsLater`, answers as soon as the first rows give the samples, with `counts`
     * null (unless the file ended by then), and goes on counting the same pass in the
     * background: the admin sees how the file was read at once, and the exact counts are ready
     * about when the file has been read (issue 19's "sample-based where that is honest, with
     * exact counts from the same streaming pass"); `countsFor` hands them over.
     */
    async preview(request: {
      draftId: number;
      /** Who asks: an admin's newer file or mapping stops their older count. */
      by: number;
      bytes: Buffer;
      fileName: string;
      zone: Zone;
      mapping?: ImportMapping;
      remembered?: boolean;
      countsLater?: boolean;
    }): Promise<FullPreview> {
      for (const [draftId, entry] of counting) if (entry.by === request.by) forget(draftId);
      forget(request.draftId);
      const kind = checkSpreadsheet(request.bytes, request.fileName, limits);
      const { sheet: sheetIndex, mapping } = rowMapping(request.mapping);
      // A preview shows even a sheet whose headers were not recognised: the admin maps them.
      if (!mapping.columns) mapping.lenient = true;
      const job = workers.start();
      let handedOn = false;
      try {
        const { sheet, layout } = await job.start(request.bytes, {
          maxRows: limits.maxRows,
          zone: request.zone,
          kind,
          sheet: sheetIndex,
          mapping,
        });
        const update = request.mapping?.duplicates === 'update';
        const recognised = layout.columns.name !== undefined && layout.columns.phone !== undefined;
        const samples: ImportPreview['samples'] = [];
        // The rows read so far, by what the counts need of them.
        const phones: string[] = [];
        const noted: boolean[] = [];
        /** The rows' values, to count the leads held rows would fill (update mode only). */
        const candidates: FillCandidate[] = [];
        const answer = (counts: ImportPreview['counts'] | null): FullPreview => ({
          draftId: request.draftId,
          fileName: request.fileName,
          sheet: {
            index: layout.sheetIndex,
            name: sheet.name,
            sheets: sheet.sheets,
            why: !recognised
              ? wizardMessages.whyUnknown
              : kind === 'csv'
                ? wizardMessages.whyCsv
                : sheetIndex === undefined || request.remembered
                  ? wizardMessages.whyFirst
                  : wizardMessages.whyChosen,
          },
          headerRow: layout.headerRow + 1,
          columns: meanings(layout).map((meaning, i) => ({ header: layout.header[i] ?? '', meaning })),
          dateFormat: mapping.monthFirst ? ('monthFirst' as const) : ('dayFirst' as const),
          duplicates: update ? ('update' as const) : ('skip' as const),
          remembered: request.remembered === true,
          samples,
          counts,
          layout,
        });

        const counted = async (summary: ParseSummary): Promise<FullPreview> => {
          const known = await leads.livePhones();
          let held = 0;
          let warnings = 0;
          const heldRows: FillCandidate[] = [];
          phones.forEach((phone, i) => {
            if (!known.has(phone)) {
              if (noted[i]) warnings += 1;
            } else {
              held += 1;
              if (update) heldRows.push(candidates[i]!);
            }
          });
          const updated = heldRows.length > 0 ? (await fills.plan(heldRows)).size : 0;
          return answer({
            totalRows: summary.totalRows,
            inserted: phones.length - held,
            duplicatesInFile: summary.duplicatesInFile,
            duplicatesInSystem: held - updated,
            updated,
            invalid: summary.invalidCount - summary.duplicatesInFile,
            warnings,
          });
        };

        const chunks = job.chunks();
        /** Reads on until the file ends (its summary) or `enough` says so (null). */
        const readUntil = async (enough: () => boolean): Promise<ParseSummary | null> => {
          for (;;) {
            const next = await chunks.next();
            if (next.done) return next.value;
            const rows = next.value;
            for (let i = 0; i < rows.count; i++) {
              phones.push(rows.phone[i]!);
              noted.push(rows.note[i] !== '');
              if (update) candidates.push(fillCandidate(rows, i));
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
            if (enough()) return null;
          }
        };

        const summary = await readUntil(() => request.countsLater === true && samples.length >= SAMPLE_ROWS);
        if (summary) return await counted(summary);
        const quick = answer(null);
        // A sheet read without Name and Phone has no counts to give: the admin maps it first.
        if (!recognised) return quick;
        handedOn = true;
        const rest = readUntil(() => false).then((end) => counted(end!));
        const entry = {
          key: mappingKey({
            ...quick,
            sheet: quick.sheet.index,
            columns: quick.columns.map((c) => c.meaning),
          }),
          by: request.by,
          preview: rest,
          stop: () => job.close(),
        };
        counting.set(request.draftId, entry);
        // Nobody may ask for these counts: a failure is then nobody's answer, not a crash.
        void rest
          .catch(() => undefined)
          .finally(() => {
            job.close();
            setTimeout(() => {
              if (counting.get(request.draftId) === entry) counting.delete(request.draftId);
            }, KEEP_COUNTED_MS).unref();
          });
        return quick;
      } finally {
        if (!handedOn) job.close();
      }
    },

    /**
     * The counts a quick preview of this draft is reading, when asked with the mapping its
     * answer spelled out (as the wizard asks); undefined otherwise (read the file again).
     */
    countsFor(draftId: number, mapping: ImportMapping): Promise<FullPreview> | undefined {
      const entry = counting.get(draftId);
      if (!entry || entry.key !== mappingKey(mapping)) return undefined;
      counting.delete(draftId);
      return entry.preview;
    },

    /** Stops a draft's background count (it is being committed, or was read again). */
    forget,
  };
}
export type ImportPreviewService = ReturnType<typeof createImportPreviewService>;
