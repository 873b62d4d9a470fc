import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { etagOf } from '../../../server/plugins/etag';
import { createAnswerCache } from '../../../server/services/answer-cache';

/** A read that counts its calls and answers `size` bytes of JSON. */
function reader(size = 100) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    read: async () => {
      calls += 1;
      return { items: ['x'.repeat(size - 4)], total: 1 };
    },
  };
}

describe('the answer cache', () => {
  it('reads once per key and version, and again once the version moves', async () => {
    const cache = createAnswerCache();
    const source = reader();
    const first = await cache.get('k', 'v1', source.read);
    expect(first.body.toString()).toBe(JSON.stringify(['x'.repeat(96)]));
    expect(first.etag).toBe(etagOf(first.body));
    expect(await cache.get('k', 'v1', source.read)).toBe(first);
    expect(cache.getNow('k', 'v1')).toBe(first);
    expect(source.calls).toBe(1);

    expect(cache.getNow('k', 'v2')).toBeUndefined();
    const second = await cache.get('k', 'v2', source.read);
    expect(second).not.toBe(first);
    expect(source.calls).toBe(2);
    // The older version's answer is gone, not kept beside the new one.
    expect(cache.getNow('k', 'v1')).toBeUndefined();
  });

  it('shares one read between callers asking at once, and forgets a read that failed', async () => {
    const cache = createAnswerCache();
    const source = reader();
    const [a, b] = await Promise.all([cache.get('k', 'v', source.read), cache.get('k', 'v', source.read)]);
    expect(a).toBe(b);
    expect(source.calls).toBe(1);

    await expect(cache.get('bad', 'v', () => Promise.reject(new Error('db down')))).rejects.toThrow(
      'db down',
    );
    await Promise.resolve();
    expect((await cache.get('bad', 'v', source.read)).total).toBe(1);
  });

  it('drops the least recently read answer first when full', async () => {
    // Room for three 100-byte answers.
    const cache = createAnswerCache({ maxBytes: 350 });
    const source = reader(100);
    for (const key of ['a', 'b', 'c']) await cache.get(key, 'v', source.read);
    // 'a' is read again, so 'b' is now the one read longest ago.
    expect(cache.getNow('a', 'v')).toBeDefined();
    await cache.get('d', 'v', source.read);
    expect(cache.getNow('b', 'v')).toBeUndefined();
    for (const key of ['a', 'c', 'd']) expect(cache.getNow(key, 'v'), key).toBeDefined();

    // Those checks read 'a', 'c' and 'd' in that order: 'a' goes next.
    await cache.get('e', 'v', source.read);
    expect(cache.getNow('a', 'v')).toBeUndefined();
    for (const key of ['c', 'd', 'e']) expect(cache.getNow(key, 'v'), key).toBeDefined();
  });

  it('keeps no answer larger than one entry may be', async () => {
    const cache = createAnswerCache({ maxEntryBytes: 500 });
    const big = reader(600);
    expect((await cache.get('big', 'v', big.read)).body.length).toBe(600);
    expect(cache.getNow('big', 'v')).toBeUndefined();
    await cache.get('big', 'v', big.read);
    expect(big.calls).toBe(2);
  });

  it('compresses an answer once per encoding, readable without waiting afterwards', async () => {
    const cache = createAnswerCache();
    const answer = await cache.get('k', 'v', reader(5000).read);
    expect(answer.encodedNow('gzip')).toBeUndefined();
    const gzip = await answer.encoded('gzip');
    expect(zlib.gunzipSync(gzip).equals(answer.body)).toBe(true);
    expect(answer.encodedNow('gzip')).toBe(gzip);
    expect(await answer.encoded('gzip')).toBe(gzip);
    expect(zlib.brotliDecompressSync(await answer.encoded('br')).equals(answer.body)).toBe(true);
  });
});
