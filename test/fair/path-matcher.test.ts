import { afterAll, describe, expect, it } from 'vitest';
import { holdPathMatcher, pathMatcher } from '../../src/discover/path-matcher.ts';

const release = holdPathMatcher();
afterAll(() => release());

/** A pattern near the compiled-size cap, which takes the matcher's thread a while on long paths. */
const HEAVY = '^/(?:[a-z]?){300}[a-z]{300}$';
const longPaths = (n: number) =>
  Array.from({ length: 50 }, (_, i) => `/${'abcdefg'.repeat(280)}${n}-${i}`);

describe("the path matcher's thread shared between keys", () => {
  it("matches another key's links in its turn while one key's batches fill the thread", async () => {
    const done: string[] = [];
    const flood = Array.from({ length: 12 }, (_, n) =>
      pathMatcher()
        .filter({ include: [HEAVY], exclude: [], paths: longPaths(n) }, 'key-a')
        .then(() => done.push(`A${n}`)),
    );
    const other = pathMatcher()
      .filter({ include: ['^/docs/'], exclude: [], paths: ['/docs/a', '/blog/b'] }, 'key-b')
      .then((verdicts) => {
        done.push('B');
        return verdicts;
      });
    expect(await other).toEqual([true, false]);
    await Promise.all(flood);
    // In arrival order B waited for most of A's twelve batches; in turn, for the one running.
    expect(done.indexOf('B'), done.join(' ')).toBeLessThan(3);
  });
});
