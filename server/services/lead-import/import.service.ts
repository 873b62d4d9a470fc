import type { Kysely } from 'kysely';
import { adminMessages as am, type UploadResponse } from '../../../contract/admin';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import type { LeadFillsRepository } from '../../repositories/lead-fills.repository';
import type { ImportCounts, LeadImportsRepository } from '../../repositories/lead-imports.repository';
import type { LeadsRepository } from '../../repositories/leads.repository';
import type { Zone } from '../agency-time';
import type { AssignmentService } from '../assignment.service';
import { checkSpreadsheet, type ZipLimits } from './file-check';
import { createChunkImporter, type Tally } from './import-chunk';
import type { ParseSummary, ParseWorkers } from './parse-workers';
import type { FoundLayout } from './protocol';
import type { RowMapping } from './rows';

export interface ImportLimits extends ZipLimits {
  maxRows: number;
}

export interface ImportRequest {
  bytes: Buffer;
  /** Nothing else holds the bytes' memory: it moves to the parse worker instead of being copied. */
  bytesMayMove?: boolean;
  filename: string;
  autoAssign: boolean;
  actorId: number;
  /** Where dates without a zone are read: the agency's zone, or an offset the caller gave. */
  zone: Zone;
  /** The import wizard's choices (issue 19): the sheet, the columns, the date order. */
  sheet?: number;
  mapping?: RowMapping;
  /**
   * What a row whose phone a live lead holds does (issue 19): it is skipped (the spec's rule), or
   * it fills that lead's empty fields.
   */
  duplicates?: 'skip' | 'update';
  /** Told where the header was found and what it says, once the worker has found it. */
  onLayout?: (layout: FoundLayout) => void;
  /** Told after each chunk how many of the sheet's rows below the header are done (issue 19). */
  onProgress?: (rowsDone: number) => void;
  /** Receives one line per import with where the time went (the route's request log). */
  log?: (fields: Record<string, number>, message: string) => void;
}

interface Deps {
  db: Kysely<Database>;
  /** Runs each upload with the database's bulk-write settings (database.ts). */
  bulkWrite: Db['bulkWrite'];
  leads: LeadsRepository;
  imports: LeadImportsRepository;
  fills: LeadFillsRepository;
  assignment: AssignmentService;
  workers: ParseWorkers;
  limits: ImportLimits;
  /** Called after an import committed (the dashboard's cached counts are stale then). */
  onImported?: () => void;
}

type Trx = Kysely<Database>;
export function createLeadImportService({
  db,
  bulkWrite,
  leads,
  imports,
  fills,
  assignment,
  workers,
  limits,
  onImported,
}: Deps) {
  const { holderLookup, importChunk } = createChunkImporter({ leads, fills });

  async function recordCounts(
    importId: number,
    summary: ParseSummary,
    tally: Tally,
    trx: Trx,
  ): Promise<ImportCounts> {
    const emails = await imports.emails([...tally.perEmployee.keys()], trx);
    const counts: ImportCounts = {
      totalRows: summary.totalRows,
      inserted: tally.inserted,
      duplicatesInFile: summary.duplicatesInFile,
      duplicatesInSystem: tally.rejected.length,
      updated: tally.updated,
      invalid: summary.invalidCount - summary.duplicatesInFile,
      warnings: tally.warnings,
      assigned: [...tally.perEmployee]
        .map(([id, count]) => ({ email: emails.get(id) ?? '', count }))
        .sort((a, b) => a.email.localeCompare(b.email)),
    };
    await imports.setCounts(importId, counts, trx);
    return counts;
  }

  async function importOne(request: ImportRequest): Promise<UploadResponse> {
    const started = performance.now();
    // The directory here; each part's real unpacked size in the worker, as it is unpacked.
    const kind = checkSpreadsheet(request.bytes, request.filename, limits);
    const job = workers.start();
    try {
      const { expectedRows, sheet, layout } = await job.start(request.bytes, {
        maxRows: limits.maxRows,
        zone: request.zone,
        kind,
        sheet: request.sheet,
        mapping: request.mapping,
        handOver: request.bytesMayMove === true,
      });
      request.onLayout?.(layout);
      const chunks = job.chunks();
      const read = performance.now();
      const tally: Tally = {
        inserted: 0,
        assigned: 0,
        raced: 0,
        rejected: [],
        updated: 0,
        warnings: 0,
        perEmployee: new Map(),
      };
      let importId = 0;
      let counts: ImportCounts | undefined;
      let employees = 0;
      let waitMs = 0;
      let parsed = 0;
      let invalidFile: Promise<Buffer> | undefined;
      const summary = await db.transaction().execute(async (trx): Promise<ParseSummary> => {
        const now = new Date().toISOString();
        importId = await imports.create(
          { createdAt: now, createdBy: request.actorId, fileName: request.filename },
          trx,
        );
        const holders = await holderLookup(expectedRows, trx);
        const balancer = request.autoAssign ? await assignment.balancer(trx) : null;
        employees = balancer?.size ?? 0;
        const update = request.duplicates === 'update';
        const ctx = { holders, balancer, now, actorId: request.actorId, importId, tally, update };
        for (;;) {
          const asked = performance.now();
          const next = await chunks.next();
          waitMs += performance.now() - asked;
          if (next.done) {
            parsed = performance.now();
            // Every rejection is known now: the worker builds the rejected-rows file while
            // this transaction commits. (Dropped unanswered if the commit fails.)
            if (next.value.invalidCount + tally.rejected.length > 0) {
              invalidFile = job.invalidFile(tally.rejected);
              invalidFile.catch(() => {});
            }
            counts = await recordCounts(importId, next.value, tally, trx);
            return next.value;
          }
          const rows = next.value;
          await importChunk(rows, trx, ctx);
          if (rows.count > 0) request.onProgress?.(rows.row[rows.count - 1]! - layout.headerRow);
        }
      });
      onImported?.();
      const committed = performance.now();

      const file = await invalidFile;
      // Kept for the history's download (issue 19). After the commit, so the file is built
      // while the commit runs, as before; a crash in between loses the file, not the import.
      if (file) await imports.setRejectedFile(importId, file);
      const answer: UploadResponse = {
        totalRows: summary.totalRows,
        inserted: tally.inserted,
        skipped: summary.totalRows - tally.inserted,
        autoAssigned: request.autoAssign && tally.assigned > 0,
      };
      if (file) answer.invalidFile = file.toString('base64');
      Object.assign(answer, {
        importId,
        sheet,
        duplicatesInFile: counts!.duplicatesInFile,
        duplicatesInSystem: counts!.duplicatesInSystem,
        updated: counts!.updated,
        invalid: counts!.invalid,
        warnings: counts!.warnings,
        assignedTo: counts!.assigned,
      });
      if (request.autoAssign && tally.inserted > 0 && employees === 0) answer.message = am.noEmployees;
      request.log?.(
        {
          totalRows: answer.totalRows,
          inserted: answer.inserted,
          readMs: Math.round(read - started),
          validateAndInsertMs: Math.round(committed - read),
          waitingForRowsMs: Math.round(waitMs),
          // From the upload's start to the worker's last row, and on to the commit.
          parsedMs: Math.round(parsed - started),
          afterParseMs: Math.round(committed - parsed),
          invalidFileMs: Math.round(performance.now() - committed),
        },
        'lead import',
      );
      return answer;
    } finally {
      job.close();
    }
  }

  return {
    /**
     * `POST /api/Admin/upload-leads` (DESIGN.md §4): check the bytes, parse in a worker, and in
     * one transaction skip phones that live leads hold, give each new lead to the least-loaded
     * employee and insert, chunk by chunk while the worker validates the next rows. Rejected
     * rows come back as an .xlsx with a Reason column, built by the worker.
     */
    importLeads(request: ImportRequest): Promise<UploadResponse> {
      // Around the whole upload, rejected-rows file included, so that the database's deferred
      // work (SQLite's checkpoint) waits until the answer is on its way.
      return bulkWrite(() => importOne(request));
    },
  };
}
export type LeadImportService = ReturnType<typeof createLeadImportService>;
