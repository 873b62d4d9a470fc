import type { ColumnMap } from './columns';
import { type Cell, displayText, type Rejection, type SheetRow } from './row-rules';
import { textPart, zipArchive } from './zip-archive';

/**
 * Spreadsheet programs run a cell that starts with = + - @ (or a tab/CR before one) as a
 * formula; a leading apostrophe makes it text (OWASP "CSV injection", DESIGN.md §4).
 */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !isPhoneText(text) ? `'${text}` : text;
}

/**
 * "+91 98100 00029" is a phone, not a formula (issue 19): it stays as typed, written as text
 * with Excel's quote-prefix style so an edit of the cell keeps it text too, with no visible
 * apostrophe.
 */
export function isPhoneText(text: string): boolean {
  return /^\+\d[\d\s\-().]*$/.test(text);
}

// Cell styles of styles.xml: 1 the bold header, 2 text that must stay text (quotePrefix),
// 3 a date with its time, day first as India writes it (number format 164).
const BOLD = 1;
const QUOTED = 2;
const DATE = 3;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** The parts every workbook of one sheet needs besides the sheet itself. */
const FIXED_PARTS: Record<string, string> = {
  '[Content_Types].xml': `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
  '_rels/.rels': `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  'xl/workbook.xml': `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="Invalid Leads" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  'xl/_rels/workbook.xml.rels': `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
  'xl/styles.xml': `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy hh:mm"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
};

/** A, B, … Z, AA, … as the sheet names its columns (0-based index). */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

const XML_SPECIAL = /[&<>]/g;
const XML_ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
/**
 * Characters XML cannot carry (and CR, which XML readers turn into LF) are written the
 * spreadsheet way, _xHHHH_; text that already looks like such an escape gets its underscore
 * escaped, so it reads back as typed.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these characters are what it finds.
const SHEET_ESCAPE = /_(?=x[0-9A-Fa-f]{4}_)|[\u0000-\u0008\u000b-\u001f\ufffe\uffff]/g;

/**
 * A number as the sheet had it, typed (issue 19: the admin can sort and sum again). Only finite
 * numbers: a formula cannot hide in one, so nothing needs neutralising.
 */
function numberXml(value: number, ref: string, style = 0): string {
  return `<c r="${ref}"${style ? ` s="${style}"` : ''}><v>${value}</v></c>`;
}

function cellXml(text: string, ref: string, style = 0): string {
  const escaped = text
    .replace(XML_SPECIAL, (c) => XML_ENTITY[c]!)
    .replace(SHEET_ESCAPE, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
  // No xml:space: cell text is trimmed on reading (cellText), so none starts or ends in a space.
  const s = style || (isPhoneText(text) ? QUOTED : 0);
  return `<c r="${ref}"${s ? ` s="${s}"` : ''} t="inlineStr"><is><t>${escaped}</t></is></c>`;
}

/** Excel's date serials the import reads as dates (dates.ts): 1900-01-01 to 9999-12-31. */
const isDateSerial = (v: number) => v >= 1 && v < 2_958_466;

/**
 * The rejected rows as an .xlsx: a Row column (the row's number in the uploaded sheet, as the
 * admin's spreadsheet program numbers it), the original header and cells, and a Reason column,
 * in sheet order. Text is written as text, so nothing in it is evaluated when it is opened;
 * numbers and the visit column's dates are written as typed values (issue 19).
 * Written here rather than by SheetJS: each upload's worker is new, and SheetJS's writer,
 * cold, took 20–70 ms for a few hundred rows that this takes about one to write.
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
  const names = Array.from({ length: width + 2 }, (_, c) => columnName(c));
  const cellAt = (cell: Cell | undefined, column: number, ref: string): string => {
    if (cell?.t === 'n' && typeof cell.v === 'number' && Number.isFinite(cell.v)) {
      const date = column === columns.visitDateTime;
      if (!date || isDateSerial(cell.v)) return numberXml(cell.v, ref, date ? DATE : 0);
    }
    return cellXml(neutralise(displayText(cell, column === columns.visitDateTime)), ref);
  };

  const lines = [`${XML_HEAD}<worksheet xmlns="${MAIN_NS}">`];
  lines.push(`<dimension ref="A1:${names[width + 1]}${rows.length + 1}"/><sheetData>`);
  const headings = [
    'Row',
    ...Array.from({ length: width }, (_, c) => displayText(header[c], false)),
    'Reason',
  ];
  lines.push(
    `<row r="1">${headings.map((t, c) => cellXml(neutralise(t), `${names[c]}1`, BOLD)).join('')}</row>`,
  );
  rows.forEach((r, i) => {
    const n = i + 2;
    const row = data[r.row];
    const cells = [numberXml(r.row + 1, `A${n}`)];
    for (let c = 0; c < width; c++) cells.push(cellAt(row?.[c], c, `${names[c + 1]}${n}`));
    cells.push(cellXml(neutralise(r.reason), `${names[width + 1]}${n}`));
    lines.push(`<row r="${n}">${cells.join('')}</row>`);
  });
  lines.push('</sheetData></worksheet>');

  return zipArchive([
    ...Object.entries(FIXED_PARTS).map(([name, xml]) => textPart(name, xml)),
    textPart('xl/worksheets/sheet1.xml', lines.join('')),
  ]);
}
