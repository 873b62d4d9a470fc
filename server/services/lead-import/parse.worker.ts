import { parentPort } from 'node:worker_threads';
import { buildInvalidFile } from './invalid-file';
import { readFirstSheet } from './parse-sheet';
import { type FromWorker, packRows, type ToWorker } from './protocol';
import { layoutSheet, type Rejection, type SheetLayout, type SheetRow, validateRows } from './rows';

// Runs in a worker thread (DESIGN.md §4): a big workbook parses here, under the worker's memory
// limit, while the API thread keeps answering. Valid rows go out in chunks as they are checked,
// so the API thread inserts the first ones while later ones are still being validated. One
// upload per worker: the sheet stays here, so the rejected-rows file is built without sending
// the rows back.

const port = parentPort!;
let sheet: { data: SheetRow[]; layout: SheetLayout; rejected: Rejection[] } | null = null;

function reply(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'parse') {
    const read = readFirstSheet(message.file, message.maxRows);
    if (!read.ok) return reply({ type: 'failed', status: read.status, message: read.message });
    const located = layoutSheet(read.data, { maxRows: message.maxRows, truncated: read.truncated });
    if (!located.ok) return reply({ type: 'failed', status: located.status, message: located.message });
    const { layout } = located;
    reply({ type: 'counted', totalRows: layout.rows.length });
    const rejected: Rejection[] = [];
    for (const chunk of validateRows(read.data, layout, message)) {
      rejected.push(...chunk.rejected);
      if (chunk.valid.length > 0) reply({ type: 'rows', valid: packRows(chunk.valid) });
    }
    sheet = { data: read.data, layout, rejected };
    return reply({ type: 'parsed', totalRows: layout.rows.length, invalidCount: rejected.length });
  }
  if (!sheet) throw new Error('invalid-file asked before a successful parse');
  const { data, layout, rejected } = sheet;
  const file = buildInvalidFile(data, layout.headerRow, layout.columns, [...rejected, ...message.extra]);
  // A copy: a small Buffer may share Node's pooled memory, which must not be transferred away.
  const bytes = new Uint8Array(file);
  reply({ type: 'invalid-file', file: bytes }, [bytes.buffer as ArrayBuffer]);
});
