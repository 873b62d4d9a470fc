import { parentPort } from 'node:worker_threads';
import { buildInvalidFile } from './invalid-file';
import { openLeadSheet, unreadableMessage } from './parse-sheet';
import { type FromWorker, packRows, type ToWorker } from './protocol';
import type { ImportedSheet } from './rows';

// Runs in a worker thread (DESIGN.md §4): a big workbook parses here, under the worker's memory
// limit, while the API thread keeps answering. Valid rows go out in chunks as they are read and
// checked, so the API thread inserts the first ones while later ones are still being read. One
// upload per worker: the sheet stays here, so the rejected-rows file is built without sending
// the rows back.

const port = parentPort!;
let sheet: ImportedSheet | null = null;

function reply(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

function parse(message: Extract<ToWorker, { type: 'parse' }>): void {
  const opened = openLeadSheet(message.file, message);
  if (!opened.ok) {
    reply({ type: 'failed', status: opened.status, message: opened.message });
    return;
  }
  const { events } = opened;
  let next: ReturnType<typeof events.next> | null = opened.first;
  for (;;) {
    try {
      next ??= events.next();
    } catch {
      // Damaged XML found part way through the sheet.
      reply({ type: 'failed', status: 400, message: unreadableMessage });
      return;
    }
    if (next.done) {
      const done = next.value;
      if (!done.ok) {
        reply({ type: 'failed', status: done.status, message: done.message });
        return;
      }
      sheet = done;
      reply({
        type: 'parsed',
        totalRows: done.totalRows,
        invalidCount: done.rejected.length,
        duplicatesInFile: done.duplicatesInFile,
      });
      return;
    }
    const event = next.value;
    next = null;
    if (event.type === 'started')
      reply({
        type: 'started',
        expectedRows: event.expectedRows,
        sheet: opened.sheet,
        layout: {
          headerRow: event.layout.headerRow,
          header: event.header,
          columns: event.layout.columns,
          sheetIndex: Math.max(0, opened.sheet.sheets.indexOf(opened.sheet.name)),
        },
      });
    else if (event.valid.length > 0) reply({ type: 'rows', valid: packRows(event.valid) });
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'parse') return parse(message);
  if (!sheet) throw new Error('invalid-file asked before a successful parse');
  const { data, layout, rejected } = sheet;
  const file = buildInvalidFile(data, layout.headerRow, layout.columns, [...rejected, ...message.extra]);
  // A copy: a small Buffer may share Node's pooled memory, which must not be transferred away.
  const bytes = new Uint8Array(file);
  reply({ type: 'invalid-file', file: bytes }, [bytes.buffer as ArrayBuffer]);
});
