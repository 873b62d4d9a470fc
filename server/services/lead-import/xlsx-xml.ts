// The pieces of an .xlsx's XML that xlsx-rows.ts reads row by row: text with its entities and
// _xHHHH_ escapes, attributes, shared strings, and the namespace prefix some writers put on every
// element.

/** Something in the package this reader does not know: the caller reads it with SheetJS. */
export class UnsupportedWorkbook extends Error {}

const ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot|apos));/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const XSTRING_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

/** XML text as characters: entities, then the _xHHHH_ escapes OOXML uses for control characters. */
export function decodeText(raw: string): string {
  // CDATA sections are text as written: kept apart from entity decoding.
  if (raw.includes('<![CDATA[')) {
    return raw
      .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
      .map((piece) => (piece.startsWith('<![CDATA[') ? piece.slice(9, -3) : decodeText(piece)))
      .join('');
  }
  let text = raw.includes('&')
    ? raw.replace(ENTITY, (_, dec: string, hex: string, name: string) =>
        name ? NAMED[name]! : String.fromCodePoint(dec ? Number(dec) : Number.parseInt(hex, 16)),
      )
    : raw;
  if (text.includes('_x'))
    text = text.replace(XSTRING_ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return text;
}

const attributePatterns = new Map<string, RegExp>();

export function attribute(tag: string, name: string): string | undefined {
  // Nearly every writer puts one space before a name and double quotes around its value.
  const plain = tag.indexOf(` ${name}="`);
  if (plain >= 0) {
    const start = plain + name.length + 3;
    const raw = tag.slice(start, tag.indexOf('"', start));
    return raw.includes('&') ? decodeText(raw) : raw;
  }
  let pattern = attributePatterns.get(name);
  if (!pattern) {
    pattern = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attributePatterns.set(name, pattern);
  }
  const match = pattern.exec(tag);
  return match ? decodeText(match[1] ?? match[2] ?? '') : undefined;
}

/** The concatenated <t> texts of a string item (<si> or <is>), phonetic runs (<rPh>) left out. */
export function itemText(document: string, from: number, to: number, p: string): string {
  // A slice, so no search below runs past the item into the rest of the part.
  const xml = document.slice(from, to);
  const open = `<${p}t`;
  const close = `</${p}t>`;
  const phonetic = `<${p}rPh`;
  const phoneticEnd = `</${p}rPh>`;
  let text = '';
  let at = 0;
  for (;;) {
    const t = xml.indexOf(open, at);
    if (t < 0) return text;
    const after = xml.charCodeAt(t + open.length);
    // <t>, <t …> or <t/>; not <tab…> or any other name starting with t.
    if (after !== 62 && after !== 32 && after !== 47 && after !== 9 && after !== 10 && after !== 13) {
      at = t + open.length;
      continue;
    }
    const rPh = xml.indexOf(phonetic, at);
    if (rPh >= 0 && rPh < t) {
      const end = xml.indexOf(phoneticEnd, rPh);
      if (end < 0) return text;
      at = end + phoneticEnd.length;
      continue;
    }
    const tagEnd = xml.indexOf('>', t);
    if (xml.charCodeAt(tagEnd - 1) === 47) {
      at = tagEnd + 1; // <t/>
      continue;
    }
    const end = xml.indexOf(close, tagEnd);
    if (end < 0) return text;
    text += decodeText(xml.slice(tagEnd + 1, end));
    at = end + close.length;
  }
}

/** The namespace prefix ("" or "x:") the root element of a part uses. */
export function prefixOf(xml: string, root: string): string {
  const match = new RegExp(`<([A-Za-z_][\\w.-]*:)?${root}[\\s>]`).exec(xml);
  if (!match) throw new UnsupportedWorkbook(`no <${root}> element`);
  return match[1] ?? '';
}

export function sharedStrings(xml: string): string[] {
  const p = prefixOf(xml, 'sst');
  const strings: string[] = [];
  const open = `<${p}si`;
  const close = `</${p}si>`;
  let at = 0;
  for (;;) {
    const si = xml.indexOf(open, at);
    if (si < 0) return strings;
    const tagEnd = xml.indexOf('>', si);
    if (xml.charCodeAt(tagEnd - 1) === 47) {
      strings.push('');
      at = tagEnd + 1;
      continue;
    }
    const end = xml.indexOf(close, tagEnd);
    if (end < 0) return strings;
    strings.push(itemText(xml, tagEnd + 1, end, p));
    at = end + close.length;
  }
}
