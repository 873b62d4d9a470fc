import { readZipDirectory, unpackedData, type ZipEntry } from './file-check';
import type { Cell, SheetRow } from './row-rules';
import { attribute, decodeText, itemText, prefixOf, sharedStrings, UnsupportedWorkbook } from './xlsx-xml';

// The first sheet of an .xlsx, row by row as its XML is read (issue 3). SheetJS reads the whole
// workbook before handing over a single row, so the import could not insert anything until the
// read was over; rows from here go to the database while later ones are still being read.
// Cells come out as SheetJS gives them with `dense: true` and no formatting ({t, v}), so the
// rules in rows.ts see the same thing from either reader. Anything this reader does not know
// (.xlsb, a chart as the first sheet, odd relationships) is reported as `unsupported` before any
// row is read, and the caller reads the file with SheetJS instead. A refusal (HttpError: a part
// unpacking past its declared size) and damage (any other error) are thrown as they are.

export interface XlsxSheet {
  /** The last row the sheet's <dimension> declares, 0 when it declares none (a hint only). */
  declaredRows: number;
  /** [0-based row index, cells] for every row element, in sheet order. */
  rows: Generator<[number, SheetRow]>;
  /** Every sheet's name, in workbook order (issue 19: which sheet was read, which exist). */
  sheetNames: string[];
}

/** "AB12" → 27 (0-based column); -1 without letters. */
function columnOf(ref: string): number {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) column = column * 26 + (c - 64);
    else if (c >= 97 && c <= 122) column = column * 26 + (c - 96);
    else break;
  }
  return i === 0 ? -1 : column - 1;
}

/** A cell element's value as SheetJS would give it, or undefined for an empty cell. */
function cellOf(
  type: string | undefined,
  xml: string,
  from: number,
  to: number,
  p: string,
  strings: string[],
): Cell | undefined {
  if (type === 'inlineStr') {
    const is = xml.indexOf(`<${p}is`, from);
    return is >= 0 && is < to ? { t: 's', v: itemText(xml, is, to, p) } : undefined;
  }
  const vOpen = `<${p}v`;
  let v = xml.indexOf(vOpen, from);
  // <v>, or <v …> with an attribute such as xml:space; never <vm…> or another name.
  while (v >= 0 && v < to && !/[\s>]/.test(xml.charAt(v + vOpen.length))) v = xml.indexOf(vOpen, v + 1);
  if (v < 0 || v >= to) return undefined;
  const valueStart = xml.indexOf('>', v) + 1;
  const end = xml.indexOf(`</${p}v>`, valueStart);
  if (end < 0 || end > to) return undefined;
  const raw = xml.slice(valueStart, end);
  switch (type) {
    case 's': {
      const text = strings[Number(raw)];
      if (text === undefined) throw new Error(`shared string ${raw} does not exist`);
      return { t: 's', v: text };
    }
    case 'str':
      return { t: 's', v: decodeText(raw) };
    case 'd': {
      // An ISO 8601 date, as SheetJS gives it with cellDates off: the serial of its wall-clock
      // time (the zone, if any, is what the writer's clock said).
      const text = decodeText(raw);
      const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) || !text.includes('T') ? text : `${text}Z`);
      return Number.isNaN(ms) ? { t: 's', v: text } : { t: 'n', v: ms / 86_400_000 + 25_569 };
    }
    case 'b':
      return { t: 'b', v: raw === '1' || raw === 'true' };
    case 'e':
      return { t: 'e', v: decodeText(raw) };
    default: {
      if (raw === '') return undefined;
      return { t: 'n', v: Number.parseFloat(raw) };
    }
  }
}

/** The cells of one row element's content, placed by their references. */
function rowCells(
  xml: string,
  from: number,
  to: number,
  p: string,
  strings: string[],
  maxColumns: number,
): SheetRow {
  const cells: (Cell | undefined)[] = [];
  const open = `<${p}c`;
  const close = `</${p}c>`;
  let column = -1;
  let at = from;
  for (;;) {
    const c = xml.indexOf(open, at);
    if (c < 0 || c >= to) return cells;
    const after = xml.charCodeAt(c + open.length);
    if (after !== 32 && after !== 62 && after !== 47 && after !== 9 && after !== 10 && after !== 13) {
      at = c + open.length;
      continue;
    }
    const tagEnd = xml.indexOf('>', c);
    const tag = xml.slice(c, tagEnd);
    const ref = attribute(tag, 'r');
    const at0 = ref === undefined ? -1 : columnOf(ref);
    column = at0 >= 0 ? at0 : column + 1;
    // Past the widest sheet read: the row is only as wide as it needs to be to say so.
    if (column >= maxColumns) {
      cells.length = column + 1;
      return cells;
    }
    if (xml.charCodeAt(tagEnd - 1) === 47) {
      at = tagEnd + 1;
      continue;
    }
    const end = xml.indexOf(close, tagEnd);
    if (end < 0 || end > to) throw new Error('a cell is not closed');
    const cell = cellOf(attribute(tag, 't'), xml, tagEnd + 1, end, p, strings);
    if (cell) cells[column] = cell;
    at = end + close.length;
  }
}

/** Rows of a worksheet part, read piece by piece so no string holds the whole sheet. */
function* worksheetRows(
  sheet: Buffer,
  p: string,
  strings: string[],
  maxColumns: number,
): Generator<[number, SheetRow]> {
  const PIECE = 4 * 1024 * 1024;
  const rowOpen = `<${p}row`;
  const marker = Buffer.from(rowOpen);
  const dataEnd = sheet.indexOf(`</${p}sheetData>`);
  const last = dataEnd < 0 ? sheet.length : dataEnd;
  let start = sheet.indexOf(`<${p}sheetData`);
  if (start < 0) return;
  let index = -1;
  while (start < last) {
    // Cut just before a row starts, so every piece holds whole rows.
    let cut = Math.min(last, start + PIECE);
    if (cut < last) {
      const next = sheet.indexOf(marker, cut);
      cut = next < 0 || next > last ? last : next;
    }
    const xml = sheet.toString('utf8', start, cut);
    let at = 0;
    for (;;) {
      const r = xml.indexOf(rowOpen, at);
      if (r < 0) break;
      const after = xml.charCodeAt(r + rowOpen.length);
      if (after !== 32 && after !== 62 && after !== 47 && after !== 9 && after !== 10 && after !== 13) {
        at = r + rowOpen.length;
        continue;
      }
      const tagEnd = xml.indexOf('>', r);
      if (tagEnd < 0) throw new Error('a row is not closed');
      const number = attribute(xml.slice(r, tagEnd), 'r');
      index = number === undefined ? index + 1 : Number(number) - 1;
      if (!Number.isInteger(index) || index < 0) throw new Error('a row number is not valid');
      if (xml.charCodeAt(tagEnd - 1) === 47) {
        yield [index, []];
        at = tagEnd + 1;
        continue;
      }
      const end = xml.indexOf(`</${p}row>`, tagEnd);
      if (end < 0) throw new Error('a row is not closed');
      yield [index, rowCells(xml, tagEnd + 1, end, p, strings, maxColumns)];
      at = end;
    }
    start = cut;
  }
}

/** Where a relationship target points inside the package. */
function resolveTarget(target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = ['xl'];
  for (const part of target.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/**
 * Opens an .xlsx for row-by-row reading of its first sheet. Throws UnsupportedWorkbook when the
 * package is not one this reader handles (read it with SheetJS), any other error when it is
 * damaged.
 */
export function openXlsxSheet(
  bytes: Uint8Array,
  options: { maxEntries: number; maxColumns: number; sheet?: number },
): XlsxSheet {
  const entries = new Map<string, ZipEntry>();
  for (const entry of readZipDirectory(bytes, options.maxEntries))
    entries.set(entry.name.toLowerCase(), entry);
  // Never more than the directory declares: a part that unpacks past it is refused (413).
  const part = (name: string): Buffer | undefined => {
    const entry = entries.get(name.toLowerCase());
    return entry ? unpackedData(bytes, entry) : undefined;
  };

  const workbook = part('xl/workbook.xml')?.toString('utf8');
  const rels = part('xl/_rels/workbook.xml.rels')?.toString('utf8');
  if (!workbook || !rels) throw new UnsupportedWorkbook('no xl/workbook.xml and its relationships');
  const wp = prefixOf(workbook, 'workbook');
  const sheetTags = [...workbook.matchAll(new RegExp(`<${wp}sheet\\s[^>]*>`, 'g'))].map((m) => m[0]);
  const sheetNames = sheetTags.map((tag, i) => attribute(tag, 'name') ?? `Sheet${i + 1}`);
  const firstSheet = sheetTags[options.sheet ?? 0];
  const id = firstSheet && /\s[\w.-]+:id\s*=\s*"([^"]*)"/.exec(firstSheet)?.[1];
  if (!id) throw new UnsupportedWorkbook('the workbook lists no sheet');

  let sheetPath: string | undefined;
  let stringsPath: string | undefined;
  for (const [relationship] of rels.matchAll(/<(?:[\w.-]+:)?Relationship\s[^>]*>/g)) {
    const type = attribute(relationship, 'Type') ?? '';
    const target = attribute(relationship, 'Target');
    if (!target || attribute(relationship, 'TargetMode') === 'External') continue;
    if (attribute(relationship, 'Id') === id) {
      if (!type.endsWith('/worksheet')) throw new UnsupportedWorkbook(`the first sheet is a ${type}`);
      sheetPath = resolveTarget(target);
    } else if (type.endsWith('/sharedStrings')) {
      stringsPath = resolveTarget(target);
    }
  }
  if (!sheetPath) throw new UnsupportedWorkbook('the first sheet has no part');
  const sheet = part(sheetPath);
  if (!sheet) throw new UnsupportedWorkbook(`no ${sheetPath} in the package`);
  const stringsXml = stringsPath ? part(stringsPath)?.toString('utf8') : undefined;
  const strings = stringsXml ? sharedStrings(stringsXml) : [];

  const head = sheet.toString('utf8', 0, Math.min(sheet.length, 4096));
  const p = prefixOf(head, 'worksheet');
  const dimension = new RegExp(`<${p}dimension\\s[^>]*>`).exec(head)?.[0];
  const ref = dimension ? attribute(dimension, 'ref') : undefined;
  const lastRow = Number(/(\d+)$/.exec(ref ?? '')?.[1] ?? 0);
  return { declaredRows: lastRow, rows: worksheetRows(sheet, p, strings, options.maxColumns), sheetNames };
}
