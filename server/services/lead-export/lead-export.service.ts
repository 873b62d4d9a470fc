import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { LEAD_EXPORT_COLUMNS } from '../../../contract/lead-export';
import type { LeadExportRepository } from '../../repositories/lead-export.repository';
import type { LeadFilter, LeadsRepository } from '../../repositories/leads.repository';
import type { Zone } from '../agency-time';
import { agencyTime, textCell } from './cells';

/** Resolves when `out` has room again, or is closed (the client went away). */
function room(out: Writable): Promise<void> {
  if (!out.writableNeedDrain || out.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/** Sheet XML allowed to wait for the zip before the next page is read. */
const QUEUE_LIMIT = 1024 * 1024;

interface ZipInput {
  _writableState?: { length: number };
  once(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
}

/**
 * The zip's input for a sheet. exceljs writes each committed row into its own stream buffer,
 * which pushes into the zip's input without heeding write()'s answer: when the client reads
 * slowly the zip pauses and the rows would pile up there, in memory. So the export looks at that
 * input's buffer itself (the bench's slow client showed +80 MB for 100,000 rows before). Empty if
 * a later exceljs is built differently; then only `out` is waited on.
 */
function zipInputs(sheet: unknown): ZipInput[] {
  const pipes = (sheet as { stream?: { pipes?: unknown } }).stream?.pipes;
  return Array.isArray(pipes)
    ? pipes.filter((p): p is ZipInput => typeof p?._writableState === 'object')
    : [];
}

/** Resolves once the zip has taken the sheet's queued XML down to the limit, or `out` closed. */
async function zipCaughtUp(inputs: readonly ZipInput[], out: Writable): Promise<void> {
  for (const input of inputs) {
    while ((input._writableState?.length ?? 0) > QUEUE_LIMIT && !out.destroyed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          input.off('drain', done);
          out.off('close', done);
          resolve();
        };
        // The timer only guards against a drain that never comes; the loop checks again.
        const timer = setTimeout(done, 100);
        input.once('drain', done);
        out.once('close', done);
      });
    }
  }
}

/** Leads read per query: a keyset page, so memory holds one page whatever the total. */
export const EXPORT_PAGE = 1000;

const WIDTHS: Record<(typeof LEAD_EXPORT_COLUMNS)[number], number> = {
  'Lead ID': 9,
  Name: 24,
  Phone: 13,
  Email: 26,
  Campaign: 20,
  Location: 16,
  Configuration: 14,
  'Interested In': 14,
  'Visit Date': 17,
  Status: 14,
  'Held By': 26,
  'Assigned On': 17,
  'Last Note': 40,
  'Last Note By': 26,
  'Last Note At': 17,
  'Next Follow-up': 17,
  'Follow-up Note': 30,
  'Created On': 17,
};

/** The client closed the connection before the file was complete. */
export class ExportAbandoned extends Error {}

interface Deps {
  /** Reads through the dashboard's reader (on SQLite a second connection). */
  leads: LeadsRepository;
  extras: LeadExportRepository;
  zone: Zone;
}

export function createLeadExportService({ leads, extras, zone }: Deps) {
  return {
    /**
     * Writes every live lead the filter matches to `out` as an .xlsx, one row per lead, oldest
     * first. exceljs's streaming WorkbookWriter zips rows as they are committed; the leads are
     * read a keyset page at a time, and the next page waits while `out` is full, so memory stays
     * bounded by a page and the zip's window, whatever the number of leads (docs/staff-and-manager.md).
     */
    async write(filter: LeadFilter, out: Writable): Promise<number> {
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
        stream: out,
        useStyles: false,
        useSharedStrings: false,
      });
      const sheet = workbook.addWorksheet('Leads', { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = LEAD_EXPORT_COLUMNS.map((header) => ({ header, width: WIDTHS[header] }));
      let afterId = 0;
      let written = 0;
      for (;;) {
        const page = await leads.exportPage(filter, afterId, EXPORT_PAGE);
        if (page.length === 0) break;
        const ids = page.map((l) => l.id);
        const [notes, followUps] = await Promise.all([extras.lastNotes(ids), extras.openFollowUps(ids)]);
        const noteOf = new Map(notes.map((n) => [n.lead_id, n]));
        const followUpOf = new Map<number, { reminder_time: string; note: string }>();
        // Sorted soonest first per lead: the first one seen is the next.
        for (const f of followUps) if (!followUpOf.has(f.lead_id)) followUpOf.set(f.lead_id, f);
        for (const lead of page) {
          const note = noteOf.get(lead.id);
          const next = followUpOf.get(lead.id);
          sheet
            .addRow([
              lead.id,
              textCell(lead.name),
              textCell(lead.phone),
              textCell(lead.email),
              textCell(lead.site_visit),
              textCell(lead.location),
              textCell(lead.configuration),
              textCell(lead.interested_in),
              agencyTime(lead.visit_date_time, zone),
              textCell(lead.status ?? 'New'),
              textCell(lead.assigned_email),
              agencyTime(lead.assigned_date, zone),
              textCell(note?.notes),
              textCell(note?.created_by),
              agencyTime(note?.created_on, zone),
              agencyTime(next?.reminder_time, zone),
              textCell(next?.note),
              agencyTime(lead.created_at, zone),
            ])
            .commit();
        }
        written += page.length;
        afterId = page[page.length - 1]!.id;
        // SQLite answers without giving the event loop a turn: give the zip one to deflate what
        // was committed, and wait while the client reads slower than the database answers,
        // rather than queue the file in memory.
        await new Promise(setImmediate);
        await zipCaughtUp(zipInputs(sheet), out);
        await room(out);
        if (out.destroyed) throw new ExportAbandoned();
        if (page.length < EXPORT_PAGE) break;
      }
      sheet.commit();
      await workbook.commit();
      return written;
    },
  };
}
export type LeadExportService = ReturnType<typeof createLeadExportService>;
