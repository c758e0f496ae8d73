import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { browserCapacity, expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { useServer } from '../helpers/server.ts';

/** Profile directories of the browsers seen, which must be gone once the server closed. */
const profiles = new Set<string>();

expectNoBrowsersLeft();
// Registered before the server, so it runs once the server closed.
afterAll(() => {
  expect(profiles.size).toBeGreaterThanOrEqual(2);
  for (const dir of profiles) expect(existsSync(dir)).toBe(false);
});
const site = useFixture(() => startFixtureSite());
const t = useServer({
  // One key may take every page here: the bounded wait is what is tested.
  settings: browserCapacity({ browsers: 2, pages: 4, perKey: 4, queueWaitMs: 400 }),
});

const engine = () => t.server.services.browser;

describe('browser pool', () => {
  it('re-runs the requests of a browser killed mid-batch on a fresh one; the others are unaffected', async () => {
    const urls = [1, 2, 3, 4].map((n) => `${site.origin}/browser/slow-js?n=${n}&ms=1500`);
    const batch = t.api('POST', '/api/v1/scrape/batch', { urls });
    // Each URL is fetched over HTTP, then opened by a browser: 8 hits mean every page is loading.
    const slowHits = () => site.hits.filter((h) => h.startsWith('/browser/slow-js')).length;
    await waitFor(
      () =>
        slowHits() >= 8 &&
        engine()
          .pids('browser')
          .filter((p) => p.active > 0).length >= 2,
    );
    for (const { pid } of engine().pids('browser')) {
      const dir = readFileSync(`/proc/${pid}/cmdline`, 'latin1')
        .split('\0')
        .find((a) => a.startsWith('--user-data-dir='));
      if (dir) profiles.add(dir.slice('--user-data-dir='.length));
    }
    const before = engine().stats().browser;
    const victim = engine()
      .pids('browser')
      .find((p) => p.active > 0)!;
    process.kill(victim.pid, 'SIGKILL');
    const { json } = await batch;
    expect(json.successful).toBe(4);
    for (const [i, r] of json.results.entries())
      expect(r.markdown).toContain(`Slow app number ${i + 1}.`);
    const after = engine().stats().browser;
    expect(after.crashes).toBe(before.crashes + 1);
    expect(after.crashRetries).toBeGreaterThanOrEqual(1);
    expect(after.crashRetries).toBeLessThanOrEqual(2);
    expect(after.launches).toBe(before.launches + 1);
  });

  it('answers 429 with Retry-After once every page is taken beyond the bounded wait', async () => {
    const calls = Array.from({ length: 7 }, (_, n) =>
      t.api('POST', '/api/v1/scrape/single', {
        url: `${site.origin}/browser/slow-js?n=${n}&ms=1200`,
      }),
    );
    const results = await Promise.all(calls);
    const busy = results.filter((r) => r.status === 429);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    expect(busy[0]!.headers.get('retry-after')).toBe('1');
    expect(busy[0]!.json.error).toMatch(/browser pages are busy/);
    expect(results.filter((r) => r.status === 200 && r.json.success).length).toBeGreaterThanOrEqual(
      4,
    );
  });

  it('keeps contexts apart: cookies set for one request are gone in the next', async () => {
    const first = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/browser/cookie-challenge`,
    });
    expect(first.json.success).toBe(true);
    const hitsBefore = site.hits.filter((h) => h === '/browser/cookie-challenge').length;
    const second = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/browser/cookie-challenge`,
    });
    expect(second.json.success).toBe(true);
    // HTTP, the challenge page in the browser, then the reload with the cookie: a fresh context
    // had no clearance cookie from the first request.
    expect(site.hits.filter((h) => h === '/browser/cookie-challenge').length - hitsBefore).toBe(3);
  });
});
