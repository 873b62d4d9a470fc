import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { etagOf } from '../plugins/etag';

export type Encoding = 'br' | 'gzip';

/** Smaller answers are sent as they are (the app's @fastify/compress threshold). */
export const COMPRESS_THRESHOLD = 2048;

const compress: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  // Quality 4, as @fastify/compress uses for the answers it compresses itself.
  br: (body) =>
    promisify(zlib.brotliCompress)(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => promisify(zlib.gzip)(body),
};

export interface CachedAnswer {
  /** The JSON as sent. */
  body: Buffer;
  etag: string;
  /** The X-Total-Count of the answer. */
  total: number;
  /** The body compressed, made once per encoding a client asked for. */
  encoded(encoding: Encoding): Promise<Buffer>;
  /** The same once it has been made, without waiting; undefined until then. */
  encodedNow(encoding: Encoding): Buffer | undefined;
}

interface Entry {
  version: string;
  answer: Promise<CachedAnswer>;
  /** The answer once read, for callers that should not wait a microtask for it. */
  ready?: CachedAnswer;
  bytes: number;
  /** When it was last read, on the cache's own clock: eviction takes the lowest first. */
  used: number;
}

function cachedAnswer(items: unknown, total: number, onGrow: (bytes: number) => void): CachedAnswer {
  const body = Buffer.from(JSON.stringify(items));
  const encodings = new Map<Encoding, Promise<Buffer>>();
  const made = new Map<Encoding, Buffer>();
  return {
    body,
    etag: etagOf(body),
    total,
    encoded(encoding) {
      let done = encodings.get(encoding);
      if (!done) {
        done = compress[encoding](body);
        done.then(
          (b) => {
            made.set(encoding, b);
            onGrow(b.length);
          },
          () => encodings.delete(encoding),
        );
        encodings.set(encoding, done);
      }
      return done;
    },
    encodedNow: (encoding) => made.get(encoding),
  };
}

/**
 * Serialised list answers, each kept under the database's change mark taken before it was read
 * (server/db/reader.ts): while the mark holds, a board refresh costs neither the query nor the
 * JSON, its ETag hash or its compression. Callers asking for the same key at once share one
 * computation. Bounded by size, least recently used out first; answers past `maxEntryBytes` are
 * not kept.
 */
export function createAnswerCache({
  maxBytes = 64 * 1024 * 1024,
  maxEntryBytes = 8 * 1024 * 1024,
}: {
  maxBytes?: number;
  maxEntryBytes?: number;
} = {}) {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let clock = 0;

  function drop(key: string, entry: Entry): void {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  }

  function grow(key: string, entry: Entry, by: number): void {
    if (entries.get(key) !== entry) return;
    entry.bytes += by;
    bytes += by;
    if (entry.bytes > maxEntryBytes) drop(key, entry);
    if (bytes <= maxBytes) return;
    // Least recently used out first. Sorting here, when the cache is full, keeps a hit down to
    // a counter: moving the entry to the end of the Map cost every cached call a delete and a set.
    const byAge = [...entries].sort(([, a], [, b]) => a.used - b.used);
    for (const [oldKey, old] of byAge) {
      if (bytes <= maxBytes) break;
      drop(oldKey, old);
    }
  }

  /** The entry read under this version, now the most recently used; drops an older one. */
  function current(key: string, version: string): Entry | undefined {
    const known = entries.get(key);
    if (!known) return undefined;
    if (known.version !== version) {
      drop(key, known);
      return undefined;
    }
    known.used = ++clock;
    return known;
  }

  return {
    /** The answer if it has been read under this version already, without waiting. */
    getNow(key: string, version: string): CachedAnswer | undefined {
      return current(key, version)?.ready;
    },
    get(
      key: string,
      version: string,
      read: () => Promise<{ items: unknown; total: number }>,
    ): Promise<CachedAnswer> {
      const known = current(key, version);
      if (known) return known.answer;
      const answer = read().then(({ items, total }) => {
        const made = cachedAnswer(items, total, (by) => grow(key, entry, by));
        entry.ready = made;
        grow(key, entry, made.body.length);
        return made;
      });
      const entry: Entry = { version, answer, bytes: 0, used: ++clock };
      entries.set(key, entry);
      entry.answer.catch(() => drop(key, entry));
      return entry.answer;
    },
  };
}
export type AnswerCache = ReturnType<typeof createAnswerCache>;

/**
 * The encoding to send for an Accept-Encoding header: br, then gzip, unless refused with q=0.
 * Undefined sends the body as it is.
 */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}
