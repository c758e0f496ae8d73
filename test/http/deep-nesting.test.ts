import { describe, expect, it } from 'vitest';
import { type FixtureHandler, startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { timed } from '../helpers/poll.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';

const nested = (n: number) =>
  `<!doctype html><html><head><title>Deep ${n}</title></head><body><p>Opening words of the deep page.</p>${'<div>'.repeat(n)}Words at the bottom of ${n} levels.${'</div>'.repeat(n)}</body></html>`;

const page =
  (html: string): FixtureHandler =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
const site = useFixture(() =>
  startFixtureSite({
    '/deep-2000.html': page(nested(2_000)),
    '/deep-100000.html': page(nested(100_000)),
    '/small.html': page(
      '<!doctype html><html><head><title>Small</title></head><body><article><h1>Small page</h1><p>A short page anyone may ask for.</p></article></body></html>',
    ),
  }),
);
// One content worker: a deep page holding it would hold every other user's pages too.
const t = useServer({ settings: { WEBDATA_CONTENT_WORKERS: '1' } });

describe('deeply nested pages', () => {
  it('answers 2,000- and 100,000-deep pages within a bound, and another user’s small scrape is not held up', async () => {
    const deep = [2_000, 100_000].map((n) =>
      timed(t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/deep-${n}.html` })),
    );
    // Let the deep pages reach the worker first.
    await new Promise((r) => setTimeout(r, 300));
    const small = await timed(
      t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/small.html` }, TEST_KEY_2),
    );
    expect(small.value.json.success).toBe(true);
    expect(small.value.json.markdown).toContain('A short page anyone may ask for.');
    // Generous for a loaded machine; unbounded, the 100,000-deep page held the worker for minutes.
    expect(small.ms).toBeLessThan(10_000);

    for (const [i, n] of [2_000, 100_000].entries()) {
      const { value, ms } = await deep[i]!;
      expect(value.json.success, `${n}`).toBe(true);
      expect(value.json.markdown, `${n}`).toContain(`Words at the bottom of ${n} levels.`);
      expect(ms, `${n}`).toBeLessThan(20_000);
    }
  }, 60_000);
});
