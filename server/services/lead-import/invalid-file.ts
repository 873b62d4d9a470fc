import * as XLSX from '@e965/xlsx';
import type { ColumnMap } from './columns';
import { type Cell, displayText, type Rejection, type SheetRow } from './rows';

/**
 * Spreadsheet programs run a cell that starts with = + - @ (or a tab/CR before one) as a
 * formula; a leading apostrophe makes it text (OWASP "CSV injection", DESIGN.md §4).
 */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * The rejected rows as an .xlsx: the original header and cells, plus a Reason column, in sheet
 * order. Every cell is written as text, so nothing in it is evaluated when it is opened.
 */
export function buildInvalidFile(
  data: readonly SheetRow[],
  headerRow: number,
  columns: ColumnMap,
  rejected: readonly Rejection[],
): Buffer {
  const header = data[headerRow] ?? [];
  const rows = [...rejected].sort((a, b) => a.row - b.row);
  let width = header.length;
  for (const r of rows) width = Math.max(width, data[r.row]?.length ?? 0);
  const text = (cell: Cell | undefined, column: number) =>
    neutralise(displayText(cell, column === columns.visitDateTime));
  const aoa: string[][] = [[...Array.from({ length: width }, (_, c) => text(header[c], -1)), 'Reason']];
  for (const r of rows) {
    const row = data[r.row];
    aoa.push([...Array.from({ length: width }, (_, c) => text(row?.[c], c)), neutralise(r.reason)]);
  }
  const sheet = XLSX.utils.aoa_to_sheet(aoa);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Invalid Leads');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}
