import { type Parser, parse } from 'csv-parse';
import type { Cell, SheetRow } from './row-rules';

// A .csv read as a one-sheet spreadsheet (issue 19), through the same row rules as a workbook.
// csv-parse (a stream) is fed the file 64 KB at a time and its records are taken as soon as
// they are parsed, so rows reach the import while the rest of the file is still being read.
// Every cell is text ({t: 's'}), as a CSV has no types: the rules read phones and day-first
// dates from text as they do from a sheet's text cells.

const CHUNK_BYTES = 64 * 1024;
const SEPARATORS = [',', ';', '\t'] as const;

/**
 * The separator of the first non-empty line, counted outside quotes: Excel in much of Europe and
 * India's regional settings writes ';', some portals a tab. Comma when the line has none.
 */
export function detectDelimiter(text: string): string {
  const line =
    text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .find((l) => l.trim() !== '') ?? '';
  const counts = new Map<string, number>(SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  let best = ',';
  for (const s of SEPARATORS) if (counts.get(s)! > counts.get(best)!) best = s;
  return best;
}

/** How many lines the file has: the hint the import plans its duplicate check with. */
function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lines += 1;
  return lines + 1;
}

function toRow(record: string[]): SheetRow {
  return record.map((text): Cell | undefined => (text === '' ? undefined : { t: 's', v: text }));
}

export interface CsvSheet {
  expectedRows: number;
  rows: Generator<[number, SheetRow]>;
}

/** The file's records as rows; a damaged file (a quote never closed) throws while iterating. */
export function openCsv(bytes: Uint8Array): CsvSheet {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const delimiter = detectDelimiter(buffer.subarray(0, CHUNK_BYTES).toString('utf8'));
  return { expectedRows: countLines(buffer), rows: records(buffer, delimiter) };
}

function* records(buffer: Buffer, delimiter: string): Generator<[number, SheetRow]> {
  const parser: Parser = parse({
    delimiter,
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    trim: false,
  });
  let failure: unknown = null;
  parser.on('error', (error) => {
    failure = error;
  });
  let index = 0;
  // A Transform stream parses on write and holds the records until read: both are synchronous.
  function* drain(): Generator<[number, SheetRow]> {
    for (let record = parser.read(); record !== null; record = parser.read()) {
      yield [index, toRow(record as string[])];
      index += 1;
    }
    if (failure) throw failure;
  }
  for (let at = 0; at < buffer.length; at += CHUNK_BYTES) {
    parser.write(buffer.subarray(at, at + CHUNK_BYTES));
    yield* drain();
  }
  parser.end();
  yield* drain();
}
