import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { parseSpreadsheet, SHEETJS_READ } from '../../../server/services/lead-import/parse-sheet';
import type { SheetRow } from '../../../server/services/lead-import/row-rules';
import { openXlsxSheet } from '../../../server/services/lead-import/xlsx-rows';
import { UnsupportedWorkbook } from '../../../server/services/lead-import/xlsx-xml';
import { textPart, zipArchive } from '../../../server/services/lead-import/zip-archive';

interface Part {
  name: string;
  text: string;
  store?: boolean;
}

/** A ZIP archive of the parts: deflated (method 8) unless `store` (method 0). */
function zip(parts: Part[]): Buffer {
  return zipArchive(parts.map((part) => textPart(part.name, part.text, part.store)));
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${CT}.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="${CT}.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="${CT}.sharedStrings+xml"/></Types>`;

const rootRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const workbookXml = (sheets = '<sheet name="Leads" sheetId="1" r:id="rId1"/>') =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>${sheets}</sheets></workbook>`;

const relsXml = (
  relationships = `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId9" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`,
) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships}</Relationships>`;

const sheetXml = (rows: string, head = '') =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="${MAIN}" xmlns:r="${REL}">${head}<sheetData>${rows}</sheetData></worksheet>`;

const sstXml = (items: string[]) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="${MAIN}" count="${items.length}" uniqueCount="${items.length}">${items.map((i) => `<si>${i}</si>`).join('')}</sst>`;

/** A one-sheet package: the sheet XML as given, the shared strings when any. */
function xlsx(
  sheet: string,
  options: { strings?: string; workbook?: string; rels?: string; parts?: Part[]; store?: boolean } = {},
): Buffer {
  const parts: Part[] = [
    { name: '[Content_Types].xml', text: contentTypes },
    { name: '_rels/.rels', text: rootRels },
    { name: 'xl/workbook.xml', text: options.workbook ?? workbookXml() },
    { name: 'xl/_rels/workbook.xml.rels', text: options.rels ?? relsXml() },
    { name: 'xl/worksheets/sheet1.xml', text: sheet, store: options.store },
    ...(options.strings === undefined ? [] : [{ name: 'xl/sharedStrings.xml', text: options.strings }]),
    ...(options.parts ?? []),
  ];
  return zip(parts);
}

const limits = { maxEntries: 1000, maxColumns: 256 };

function readRows(bytes: Uint8Array): [number, SheetRow][] {
  return [...openXlsxSheet(bytes, limits).rows];
}

/** The first sheet's `!data` as SheetJS reads it for the import. */
function sheetJsRows(bytes: Buffer): SheetRow[] {
  const book = XLSX.read(bytes, { ...SHEETJS_READ, type: 'buffer' });
  const sheet = book.Sheets[book.SheetNames[0]!]!;
  return ((sheet as { '!data'?: SheetRow[] })['!data'] ?? []) as SheetRow[];
}

/** Cells as {t, v} only (SheetJS adds `r`, the raw XML, to shared strings), holes as null. */
function plain(row: SheetRow): string {
  return JSON.stringify(Array.from(row ?? [], (cell) => (cell ? { t: cell.t, v: cell.v } : null)));
}

/** The reader's rows, index by index, are SheetJS's `!data` rows. */
function expectSameAsSheetJs(bytes: Buffer): void {
  const ours = readRows(bytes);
  const theirs = sheetJsRows(bytes);
  const byIndex = new Map(ours.map(([index, row]) => [index, row]));
  const last = Math.max(theirs.length - 1, ...ours.map(([index]) => index));
  for (let r = 0; r <= last; r++) expect([r, plain(byIndex.get(r))]).toEqual([r, plain(theirs[r])]);
}

describe('openXlsxSheet: cell values', () => {
  const strings = sstXml(['<t>Name</t>', '<t>Phone</t>', '<t xml:space="preserve">  Asha  </t>']);
  const rows =
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
    '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>9876543210</v></c><c r="C2"><v>-1.5E-3</v></c></row>' +
    '<row r="3"><c r="A3" t="inlineStr"><is><t>Inline text</t></is></c><c r="B3" t="b"><v>1</v></c><c r="C3" t="b"><v>0</v></c></row>' +
    '<row r="4"><c r="A4" t="str"><f>CONCAT("a","b")</f><v>ab</v></c><c r="B4"><f>1+1</f></c><c r="C4"><f>2*3</f><v>6</v></c></row>';
  const bytes = xlsx(sheetXml(rows), { strings });

  it('yields shared and inline strings, numbers, booleans and formula results', () => {
    expect(readRows(bytes)).toEqual([
      [
        0,
        [
          { t: 's', v: 'Name' },
          { t: 's', v: 'Phone' },
        ],
      ],
      [
        1,
        [
          { t: 's', v: '  Asha  ' },
          { t: 'n', v: 9876543210 },
          { t: 'n', v: -0.0015 },
        ],
      ],
      [
        2,
        [
          { t: 's', v: 'Inline text' },
          { t: 'b', v: true },
          { t: 'b', v: false },
        ],
      ],
      // B4 has a formula and no cached value: nothing there.
      [3, [{ t: 's', v: 'ab' }, undefined, { t: 'n', v: 6 }]],
    ]);
    const formulaRow = readRows(bytes)[3]![1]!;
    expect(1 in formulaRow).toBe(false);
    expect(formulaRow.length).toBe(3);
  });

  it('reads those cells as SheetJS does', () => {
    expectSameAsSheetJs(bytes);
  });

  it('yields an error cell with type e', () => {
    const row = readRows(
      xlsx(sheetXml('<row r="1"><c r="A1" t="e"><v>#DIV/0!</v></c><c r="B1"><v>2</v></c></row>')),
    );
    expect(row).toHaveLength(1);
    expect(row[0]![1]![0]!.t).toBe('e');
    expect(row[0]![1]![1]).toEqual({ t: 'n', v: 2 });
  });

  it('reads a stored (method 0) part as a deflated one', () => {
    const stored = xlsx(sheetXml(rows), { strings, store: true });
    expect(readRows(stored)).toEqual(readRows(bytes));
    expectSameAsSheetJs(stored);
  });
});

describe('openXlsxSheet: strings', () => {
  it('joins rich-text runs and leaves out phonetic runs', () => {
    const strings = sstXml([
      '<r><rPr><b/><sz val="11"/></rPr><t>Ra</t></r><r><t xml:space="preserve"> vi</t></r>',
      '<t>漢字</t><rPh sb="0" eb="2"><t>カンジ</t></rPh><phoneticPr fontId="1"/>',
      '<r><t>Mi</t></r><r><t>na</t></r><rPh sb="0" eb="1"><t>ミナ</t></rPh>',
      '<t/>',
    ]);
    const bytes = xlsx(
      sheetXml(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>',
      ),
      { strings },
    );
    expect(readRows(bytes)).toEqual([
      [
        0,
        [
          { t: 's', v: 'Ra vi' },
          { t: 's', v: '漢字' },
          { t: 's', v: 'Mina' },
          { t: 's', v: '' },
        ],
      ],
    ]);
    expectSameAsSheetJs(bytes);
  });

  it('decodes XML entities and _xHHHH_ escapes', () => {
    const strings = sstXml([
      '<t>A &amp; B &lt;c&gt; it&#39;s &#x20AC;5 &quot;q&quot; &apos;</t>',
      '<t>one_x000D_two_x0009_</t>',
    ]);
    const bytes = xlsx(
      sheetXml(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>' +
          '<c r="C1" t="inlineStr"><is><t>x &amp;amp; _x0041_ &#8377;</t></is></c>' +
          '<c r="D1" t="str"><f>"&lt;"</f><v>&lt;tag&gt; &amp;</v></c></row>',
      ),
      { strings },
    );
    expect(readRows(bytes)).toEqual([
      [
        0,
        [
          { t: 's', v: 'A & B <c> it\'s €5 "q" \'' },
          { t: 's', v: 'one\rtwo\t' },
          { t: 's', v: 'x &amp; A ₹' },
          { t: 's', v: '<tag> &' },
        ],
      ],
    ]);
    expectSameAsSheetJs(bytes);
  });
});

describe('openXlsxSheet: cells SheetJS reads in less common forms', () => {
  it('reads an ISO date cell (t="d") as the serial of its wall-clock time, as SheetJS does', () => {
    const bytes = xlsx(
      sheetXml(
        '<row r="1"><c r="A1" t="d"><v>2026-01-05T10:30:00Z</v></c><c r="B1" t="d"><v>2026-01-05</v></c></row>',
      ),
    );
    expect(readRows(bytes)).toEqual([
      [
        0,
        [
          { t: 'n', v: 46027.4375 },
          { t: 'n', v: 46027 },
        ],
      ],
    ]);
    expectSameAsSheetJs(bytes);
  });

  it('reads a value element with attributes, CDATA text and a number SheetJS would read', () => {
    const bytes = xlsx(
      sheetXml(
        '<row r="1"><c r="A1" t="str"><f>A2</f><v xml:space="preserve"> x </v></c><c r="B1"><v>5</v></c>' +
          '<c r="C1" t="inlineStr"><is><t><![CDATA[a<b & c]]> &amp; d</t></is></c><c r="D1"><v>1.5E3</v></c></row>',
      ),
    );
    expect(readRows(bytes)).toEqual([
      [
        0,
        [
          { t: 's', v: ' x ' },
          { t: 'n', v: 5 },
          { t: 's', v: 'a<b & c & d' },
          { t: 'n', v: 1500 },
        ],
      ],
    ]);
    expectSameAsSheetJs(bytes);
  });
});

describe('openXlsxSheet: row and cell placement', () => {
  it('places rows and cells without r one after another', () => {
    const bytes = xlsx(
      sheetXml(
        '<row><c><v>1</v></c><c><v>2</v></c></row>' +
          '<row><c t="inlineStr"><is><t>a</t></is></c><c r="D2"><v>4</v></c><c><v>5</v></c></row>' +
          '<row r="5"><c r="B5"><v>7</v></c></row>' +
          '<row><c><v>8</v></c></row>',
      ),
    );
    expect(readRows(bytes)).toEqual([
      [
        0,
        [
          { t: 'n', v: 1 },
          { t: 'n', v: 2 },
        ],
      ],
      [1, [{ t: 's', v: 'a' }, undefined, undefined, { t: 'n', v: 4 }, { t: 'n', v: 5 }]],
      [4, [undefined, { t: 'n', v: 7 }]],
      [5, [{ t: 'n', v: 8 }]],
    ]);
    expectSameAsSheetJs(bytes);
  });

  it('keeps gaps between rows and yields empty rows and cells as empty', () => {
    const bytes = xlsx(
      sheetXml(
        '<row r="2"><c r="A2"><v>1</v></c><c r="B2" s="3"/><c r="C2"><v>3</v></c></row>' +
          '<row r="3" spans="1:3"/>' +
          '<row r="5"><c r="A5" s="1"/></row>' +
          '<row r="6" ht="20" customHeight="1">\n  <c r="B6"\n    t="n"><v>6</v></c>\n</row>',
      ),
    );
    const rows = readRows(bytes);
    expect(rows.map(([index]) => index)).toEqual([1, 2, 4, 5]);
    expect(rows[0]![1]).toEqual([{ t: 'n', v: 1 }, undefined, { t: 'n', v: 3 }]);
    expect(1 in rows[0]![1]!).toBe(false);
    expect(rows[1]![1]).toEqual([]);
    expect(rows[2]![1]).toEqual([]);
    expect(rows[3]![1]).toEqual([undefined, { t: 'n', v: 6 }]);
    expectSameAsSheetJs(bytes);
  });

  it('reads a sheet longer than one 4 MB piece without losing or splitting rows', () => {
    const count = 40_000;
    let rows = '';
    for (let r = 1; r <= count; r++)
      rows += `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>Lead number ${r} with some padding text</t></is></c><c r="B${r}"><v>${9000000000 + r}</v></c></row>`;
    const sheet = sheetXml(rows);
    expect(sheet.length).toBeGreaterThan(5 * 1024 * 1024);
    const read = readRows(xlsx(sheet));
    expect(read).toHaveLength(count);
    read.forEach(([index, cells], i) => {
      if (index !== i) throw new Error(`row ${i} came out as ${index}`);
      const text = (cells![0]!.v as string) + cells![1]!.v;
      if (text !== `Lead number ${i + 1} with some padding text${9000000001 + i}`)
        throw new Error(`row ${i}: ${text}`);
    });
  });
});

describe('openXlsxSheet: packages', () => {
  it('reads a namespace-prefixed worksheet and shared strings as the plain ones', () => {
    const prefixedStrings = `<?xml version="1.0" encoding="UTF-8"?><x:sst xmlns:x="${MAIN}" count="2" uniqueCount="2"><x:si><x:t>Name</x:t></x:si><x:si><x:r><x:t>Ri</x:t></x:r><x:r><x:t>ya</x:t></x:r></x:si></x:sst>`;
    const prefixedSheet = `<?xml version="1.0" encoding="UTF-8"?><x:worksheet xmlns:x="${MAIN}"><x:dimension ref="A1:B2"/><x:sheetData><x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1"><x:v>42</x:v></x:c></x:row><x:row r="2"><x:c r="A2" t="s"><x:v>1</x:v></x:c><x:c r="B2" t="inlineStr"><x:is><x:t>in</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>`;
    const plainBytes = xlsx(
      sheetXml(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>42</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="inlineStr"><is><t>in</t></is></c></row>',
        '<dimension ref="A1:B2"/>',
      ),
      { strings: sstXml(['<t>Name</t>', '<r><t>Ri</t></r><r><t>ya</t></r>']) },
    );
    const prefixed = xlsx(prefixedSheet, { strings: prefixedStrings });
    const expected: [number, SheetRow][] = [
      [
        0,
        [
          { t: 's', v: 'Name' },
          { t: 'n', v: 42 },
        ],
      ],
      [
        1,
        [
          { t: 's', v: 'Riya' },
          { t: 's', v: 'in' },
        ],
      ],
    ];
    expect(readRows(plainBytes)).toEqual(expected);
    expect(readRows(prefixed)).toEqual(expected);
    expect(openXlsxSheet(prefixed, limits).declaredRows).toBe(2);
    expectSameAsSheetJs(prefixed);
  });

  it('follows an absolute target to the sheet the workbook lists first, not the first in the zip', () => {
    const first = sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>listed first</t></is></c></row>');
    const second = sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>listed second</t></is></c></row>');
    const parts: Part[] = [
      { name: '[Content_Types].xml', text: contentTypes },
      { name: '_rels/.rels', text: rootRels },
      // sheet1.xml comes first in the zip but is the workbook's second sheet.
      { name: 'xl/worksheets/sheet1.xml', text: second },
      { name: 'xl/worksheets/sheet2.xml', text: first },
      {
        name: 'xl/workbook.xml',
        text: workbookXml(
          '<sheet name="Front" sheetId="2" r:id="rId2"/><sheet name="Back" sheetId="1" r:id="rId1"/>',
        ),
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        text: relsXml(
          `<Relationship Id="rId1" Type="${REL}/worksheet" Target="/xl/worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/worksheet" Target="/xl/worksheets/sheet2.xml"/>`,
        ),
      },
    ];
    const bytes = zip(parts);
    expect(readRows(bytes)).toEqual([[0, [{ t: 's', v: 'listed first' }]]]);
    expectSameAsSheetJs(bytes);
  });

  it('gives the rows the dimension declares, 0 without one', () => {
    const row = '<row r="1"><c r="A1"><v>1</v></c></row>';
    expect(openXlsxSheet(xlsx(sheetXml(row, '<dimension ref="A1:C42"/>')), limits).declaredRows).toBe(42);
    expect(openXlsxSheet(xlsx(sheetXml(row, '<dimension ref="B7"/>')), limits).declaredRows).toBe(7);
    expect(openXlsxSheet(xlsx(sheetXml(row)), limits).declaredRows).toBe(0);
  });

  it('ends a row at the first cell past maxColumns, as wide as that cell', () => {
    const bytes = xlsx(
      sheetXml(
        '<row r="1"><c r="A1"><v>1</v></c><c r="IV1"><v>2</v></c></row>' +
          '<row r="2"><c r="A2"><v>3</v></c><c r="IW2"><v>4</v></c><c r="IX2"><v>5</v></c></row>' +
          '<row r="3"><c r="XFD3"><v>6</v></c></row>',
      ),
    );
    const rows = readRows(bytes);
    expect(rows.map(([index, cells]) => [index, cells!.length])).toEqual([
      [0, 256],
      [1, 257],
      [2, 16_384],
    ]);
    expect(rows[0]![1]![255]).toEqual({ t: 'n', v: 2 });
    expect(rows[1]![1]![0]).toEqual({ t: 'n', v: 3 });
  });
});

describe('openXlsxSheet: what it leaves to SheetJS', () => {
  it('throws UnsupportedWorkbook for a package without xl/workbook.xml (.xlsb)', () => {
    const xlsb = zip([
      { name: '[Content_Types].xml', text: contentTypes },
      { name: 'xl/workbook.bin', text: 'binary' },
      { name: 'xl/_rels/workbook.bin.rels', text: relsXml() },
      { name: 'xl/worksheets/sheet1.bin', text: 'binary' },
    ]);
    expect(() => openXlsxSheet(xlsb, limits)).toThrow(UnsupportedWorkbook);
  });

  it('throws UnsupportedWorkbook when the first sheet is a chartsheet', () => {
    const bytes = xlsx(sheetXml('<row r="1"><c r="A1"><v>1</v></c></row>'), {
      workbook: workbookXml(
        '<sheet name="Chart1" sheetId="2" r:id="rId2"/><sheet name="Data" sheetId="1" r:id="rId1"/>',
      ),
      rels: relsXml(
        `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/chartsheet" Target="chartsheets/sheet1.xml"/>`,
      ),
      parts: [
        {
          name: 'xl/chartsheets/sheet1.xml',
          text: `<chartsheet xmlns="${MAIN}" xmlns:r="${REL}"><drawing r:id="rId1"/></chartsheet>`,
        },
      ],
    });
    expect(() => openXlsxSheet(bytes, limits)).toThrow(UnsupportedWorkbook);
  });

  it('throws a plain error while iterating a row that is never closed', () => {
    const bytes = xlsx(
      `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c>`,
    );
    const sheet = openXlsxSheet(bytes, limits);
    const rows = sheet.rows;
    expect(rows.next().value).toEqual([0, [{ t: 'n', v: 1 }]]);
    let error: unknown;
    try {
      rows.next();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(UnsupportedWorkbook);
    expect(() => [...openXlsxSheet(bytes, limits).rows]).toThrow('a row is not closed');
  });
});

describe('parseSpreadsheet with the streaming reader', () => {
  const aoa = [
    ['Name', 'Phone'],
    ['Asha Rao', '9876543210'],
    ['Vikram', 9123456780],
    ['', ''],
    ['Meera', '98765 43211'],
  ];
  const book = () => {
    const workbook = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(aoa), 'Leads');
    return workbook;
  };
  const options = { maxRows: 1000, zone: { offsetMinutes: 330 } };

  it('reads a SheetJS-written .xlsx as before', () => {
    const bytes = XLSX.write(book(), { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    expectSameAsSheetJs(bytes);
    const { result } = parseSpreadsheet(bytes, options);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.headerRow).toBe(0);
    expect(result.totalRows).toBe(3);
    expect(result.rejected).toEqual([]);
    expect(result.valid.map((row) => [row.row, row.name, row.phone])).toEqual([
      [1, 'Asha Rao', '9876543210'],
      [2, 'Vikram', '9123456780'],
      [4, 'Meera', '9876543211'],
    ]);
  });

  it('still reads an .xls through SheetJS', () => {
    const bytes = XLSX.write(book(), { type: 'buffer', bookType: 'biff8' }) as Buffer;
    const { result } = parseSpreadsheet(bytes, options);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.totalRows).toBe(3);
    expect(result.valid.map((row) => [row.row, row.name, row.phone])).toEqual([
      [1, 'Asha Rao', '9876543210'],
      [2, 'Vikram', '9123456780'],
      [4, 'Meera', '9876543211'],
    ]);
  });
});
