import zlib from 'node:zlib';

// A ZIP writer small enough to read at a glance: the rejected-rows file is built with it, and
// the tests build hostile packages with it (a directory that says what they choose).

export interface ZipPart {
  name: string;
  /** The bytes as stored in the archive (deflated when `method` is 8). */
  stored: Buffer;
  method: 0 | 8;
  /** The unpacked size the local header and the central directory declare. */
  declaredSize: number;
  /** The CRC-32 of the unpacked bytes, for readers that check it (SheetJS, Excel); 0 when left out. */
  crc?: number;
}

/** A part holding `text`, deflated (method 8) unless `store` (method 0), with its true size and CRC. */
export function textPart(name: string, text: string, store = false): ZipPart {
  const data = Buffer.from(text);
  return {
    name,
    stored: store ? data : zlib.deflateRawSync(data),
    method: store ? 0 : 8,
    declaredSize: data.length,
    crc: zlib.crc32(data),
  };
}

/**
 * The fields a local header and its directory entry share, in the same order from `at` (the
 * method's offset: 8 in a local header, 10 in the directory): method, CRC-32, stored size,
 * declared size, name length. Written once, so the two cannot disagree.
 */
function writeSizes(header: Buffer, at: number, part: ZipPart, nameLength: number): void {
  header.writeUInt16LE(part.method, at);
  header.writeUInt32LE(part.crc ?? 0, at + 6);
  header.writeUInt32LE(part.stored.length, at + 10);
  header.writeUInt32LE(part.declaredSize, at + 14);
  header.writeUInt16LE(nameLength, at + 18);
}

/** A ZIP archive of `parts`, local headers and directory agreeing on every declared size. */
export function zipArchive(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    writeSizes(local, 8, part, name.length);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    writeSizes(entry, 10, part, name.length);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, part.stored);
    central.push(entry, name);
    offset += 30 + name.length + part.stored.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
