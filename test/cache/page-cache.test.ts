import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PageCache } from '../../src/cache/index.ts';
import { storeBackends } from '../helpers/backends.ts';
import { useFixture } from '../helpers/fixture.ts';

/** About 4 kB of hex that brotli cannot shrink below about 2 kB: a body of a known size. */
function body(seed: string): string {
  let text = '';
  for (let i = 0; text.length < 4096; i++)
    text += createHash('sha256').update(`${seed}:${i}`).digest('hex');
  return text;
}

describe.each(storeBackends)('the page cache on %s', (_name, open) => {
  const database = useFixture(open);
  afterEach(() => vi.restoreAllMocks());
  /** A cache of one user's entries in `dir`, kept an hour, within `maxBytes`. */
  const cacheIn = (dir: string, maxBytes: number) =>
    new PageCache({ db: database.db, dir, maxBytes, ttlMs: 3_600_000, shared: false });

  it('keeps the later of two writes of one entry, however long the earlier one takes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'webdata-cache-'));
    try {
      const cache = cacheIn(dir, 50_000_000);
      // The first body takes brotli far longer than the second: unordered, it landed last.
      const slow = Array.from({ length: 600 }, (_, i) => body(`slow${i}`)).join('');
      const now = Date.now();
      const first = cache.put('u', 'k', 'https://k.test/', slow, now);
      const second = cache.put('u', 'k', 'https://k.test/', body('fresh'), now + 1);
      await Promise.all([first, second]);
      const entry = await cache.get('u', 'k', 0);
      expect(entry?.body).toBe(body('fresh'));
      expect(entry?.cachedAt).toBe(now + 1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('evicts the least recently used entry when stores and reads fall in one millisecond', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'webdata-cache-'));
    try {
      // Room for two bodies, not three.
      const cache = cacheIn(dir, 5_000);
      const now = Date.now();
      vi.spyOn(Date, 'now').mockReturnValue(now);
      await cache.put('u', 'a', 'https://a.test/', body('a'), now);
      await cache.put('u', 'b', 'https://b.test/', body('b'), now);
      expect((await cache.get('u', 'a', 0))?.body).toBe(body('a'));
      await cache.put('u', 'c', 'https://c.test/', body('c'), now);
      expect(await cache.get('u', 'b', 0)).toBeUndefined();
      expect((await cache.get('u', 'a', 0))?.body).toBe(body('a'));
      expect((await cache.get('u', 'c', 0))?.body).toBe(body('c'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
