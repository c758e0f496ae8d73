import { describe, expect, it } from 'vitest';
import { sendHtml } from '../fixtures/site/respond.ts';
import type { FixtureHandler } from '../fixtures/site/server.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';
import { allPages, waitForJob } from '../jobs/helpers.ts';

/**
 * A page that changes on every fetch (its serial number), so a test tells a cached answer from a
 * fresh one by its text as well as by the origin's request log; `?bulk=N` adds N distinct words,
 * for a result of a known, barely compressible size.
 */
const served = new Map<string, number>();
const numbered: FixtureHandler = (_req, res, url) => {
  const n = (served.get(url.search) ?? 0) + 1;
  served.set(url.search, n);
  const bulk = Array.from(
    { length: Number(url.searchParams.get('bulk') ?? 0) },
    (_, i) => `w${(i * 7919 + n * 104729).toString(36)}`,
  ).join(' ');
  sendHtml(
    res,
    `<!doctype html><html><head><title>Numbered</title></head><body><main><h1>Numbered page</h1><p>This is fetch number ${n} of the page, served fresh by the origin.</p><p>${bulk}</p></main></body></html>`,
  );
};

/** Two pages, the first linking to the second, for a crawl. */
const linked: FixtureHandler = (_req, res, url) => {
  const leaf = url.pathname.endsWith('/leaf');
  sendHtml(
    res,
    `<!doctype html><html><body><main><h1>${leaf ? 'Leaf' : 'Home'}</h1><p>A page of the crawled site with enough words to be content.</p>${leaf ? '' : '<a href="/linked/leaf">the leaf</a>'}</main></body></html>`,
  );
};

const site = useFixture(() => startFixtureSite({ '/numbered': numbered, '/linked/*': linked }));

const fetchesOf = (search: string) => site.hits.filter((h) => h === `/numbered${search}`).length;

describe.each(['sqlite', 'postgres'] as const)('the page cache on %s', (backend) => {
  const t = useServer({ backend });
  const scrape = (body: Record<string, unknown>, key?: string) =>
    t.api('POST', '/api/v1/scrape/single', body, key);

  it('serves a fresh enough result without a request to the origin, at the cached price', async () => {
    const url = `${site.origin}/numbered?case=hit-${backend}`;
    const first = await scrape({ url, maxAge: 60_000 });
    expect(first.status).toBe(200);
    expect(first.json.cacheState).toBe('miss');
    expect(first.json.cachedAt).toBe(first.json.timestamp);
    expect(first.json.cost).toBe(0.002);
    expect(first.json.markdown).toContain('fetch number 1');

    const second = await scrape({ url, maxAge: 60_000 });
    expect(second.json.cacheState).toBe('hit');
    expect(second.json.cachedAt).toBe(first.json.cachedAt);
    expect(second.json.markdown).toBe(first.json.markdown);
    expect(second.json.cost).toBe(0.002);
    expect(second.json.url).toBe(url);
    expect(fetchesOf(`?case=hit-${backend}`)).toBe(1);

    const rows = await t.ledger();
    const cached = rows.filter((r) => r.operation === 'cached');
    expect(cached).toHaveLength(1);
    expect(cached[0]!.costMicros).toBe(2_000);
    expect(cached[0]!.units).toBe(1);
  });

  it('fetches again with maxAge 0 (the default) and after the entry is older than maxAge', async () => {
    const url = `${site.origin}/numbered?case=expiry-${backend}`;
    await scrape({ url });
    const always = await scrape({ url });
    expect(always.json.cacheState).toBe('miss');
    expect(always.json.markdown).toContain('fetch number 2');
    const young = await scrape({ url, maxAge: 1_000 });
    expect(young.json.cacheState).toBe('hit');
    expect(young.json.markdown).toContain('fetch number 2');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const old = await scrape({ url, maxAge: 1_000 });
    expect(old.json.cacheState).toBe('miss');
    expect(old.json.markdown).toContain('fetch number 3');
    expect(fetchesOf(`?case=expiry-${backend}`)).toBe(3);
  });

  it('keys entries by what shapes the result, by API key, and never serves requests with actions', async () => {
    const url = `${site.origin}/numbered?case=keys-${backend}`;
    await scrape({ url, maxAge: 60_000 });
    const otherFormat = await scrape({ url, maxAge: 60_000, type: 'html' });
    expect(otherFormat.json.cacheState).toBe('miss');
    const otherKey = await scrape({ url, maxAge: 60_000 }, TEST_KEY_2);
    expect(otherKey.json.cacheState).toBe('miss');
    expect(otherKey.json.markdown).toContain('fetch number 3');
    const withActions = await scrape({
      url,
      maxAge: 60_000,
      actions: [{ type: 'wait', milliseconds: 10 }],
    });
    expect(withActions.json.cacheState).toBe('miss');
    expect(withActions.json.cachedAt).toBe(withActions.json.timestamp);
    // The same request without actions still finds the first user's own entry.
    const own = await scrape({ url: `${url}&utm_source=newsletter`, maxAge: 60_000 });
    expect(own.json.cacheState).toBe('hit');
    expect(own.json.markdown).toContain('fetch number 1');
    const notStored = `${site.origin}/numbered?case=nostore-${backend}`;
    await scrape({ url: notStored, storeInCache: false });
    expect((await scrape({ url: notStored, maxAge: 60_000 })).json.cacheState).toBe('miss');
  });

  it('serves batch items and /v2 from the same cache', async () => {
    const url = `${site.origin}/numbered?case=doors-${backend}`;
    await scrape({ url, maxAge: 60_000, extractMetadata: true, formats: ['markdown'] });
    const batch = () =>
      t.api('POST', '/api/v1/scrape/batch', {
        urls: [url, `${site.origin}/numbered?case=doors2-${backend}`],
        maxAge: 60_000,
      });
    const states = (res: { json: any }) =>
      res.json.results.map((r: { cacheState: string }) => r.cacheState);
    expect(states(await batch())).toEqual(['miss', 'miss']);
    const again = await batch();
    expect(states(again)).toEqual(['hit', 'hit']);
    expect(again.json.cost).toBe(0.004);
    // Firecrawl's v2 asks for markdown with metadata, as the first native scrape above did.
    const v2 = await t.api('POST', '/v2/scrape', { url, maxAge: 60_000 });
    expect(v2.status).toBe(200);
    expect(v2.json.data.metadata.cacheState).toBe('miss');
    const v2again = await t.api('POST', '/v2/scrape', { url, maxAge: 60_000 });
    expect(v2again.json.data.metadata.cacheState).toBe('hit');
    expect(v2again.json.data.markdown).toBe(v2.json.data.markdown);
  });

  it('serves crawl pages from the cache, following the links the cached page had', async () => {
    const crawlOnce = async () => {
      const res = await t.api('POST', '/api/v1/crawl', {
        url: `${site.origin}/linked/home`,
        maxAge: 60_000,
        sitemap: 'skip',
        ignoreRobotsTxt: true,
      });
      expect(res.status).toBe(202);
      await waitForJob(t, res.json.url, { timeoutMs: 60_000 });
      const { data } = await allPages(t, res.json.url, 10);
      return data.map((d: { url: string; cacheState: string }) => [
        new URL(d.url).pathname,
        d.cacheState,
      ]);
    };
    const before = site.hits.filter((h) => h.startsWith('/linked/')).length;
    expect((await crawlOnce()).sort()).toEqual([
      ['/linked/home', 'miss'],
      ['/linked/leaf', 'miss'],
    ]);
    expect((await crawlOnce()).sort()).toEqual([
      ['/linked/home', 'hit'],
      ['/linked/leaf', 'hit'],
    ]);
    expect(site.hits.filter((h) => h.startsWith('/linked/')).length - before).toBe(2);
  });

  it('serves async batch items and /v2 batch and crawl pages from the cache', async () => {
    const url = `${site.origin}/numbered?case=async-${backend}`;
    await scrape({ url });
    const job = await t.api('POST', '/api/v1/scrape/async/batch', { urls: [url], maxAge: 60_000 });
    expect(job.status).toBe(202);
    await waitForJob(t, job.json.url, { timeoutMs: 60_000 });
    const { data } = await allPages(t, job.json.url, 10);
    expect(data.map((d: { cacheState: string }) => d.cacheState)).toEqual(['hit']);
    const v2poll = async (path: string) => {
      for (const deadline = Date.now() + 60_000; ; ) {
        const body = (await t.api('GET', path)).json;
        if (body.status !== 'scraping' || Date.now() > deadline) return body;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    // Firecrawl's layer asks for markdown with metadata: another key than the native scrape's.
    const batch = await t.api('POST', '/v2/batch/scrape', { urls: [url], maxAge: 60_000 });
    const batchDone = await v2poll(`/v2/batch/scrape/${batch.json.id}`);
    expect(batchDone.data[0].metadata.cacheState).toBe('miss');
    const crawl = await t.api('POST', '/v2/crawl', {
      url,
      limit: 1,
      sitemap: 'skip',
      scrapeOptions: { maxAge: 60_000 },
    });
    expect(crawl.status).toBe(200);
    const crawlDone = await v2poll(`/v2/crawl/${crawl.json.id}`);
    expect(crawlDone.data[0].metadata.cacheState).toBe('hit');
    expect(fetchesOf(`?case=async-${backend}`)).toBe(2);
  });

  it("deletes only the caller's own entries, by URL or prefix", async () => {
    const url = `${site.origin}/numbered?case=delete-${backend}`;
    await scrape({ url });
    await scrape({ url }, TEST_KEY_2);
    const gone = await t.api('DELETE', `/api/v1/cache?url=${encodeURIComponent(url)}`);
    expect(gone.json).toEqual({ success: true, deleted: 1 });
    expect((await scrape({ url, maxAge: 60_000 })).json.cacheState).toBe('miss');
    expect((await scrape({ url, maxAge: 60_000 }, TEST_KEY_2)).json.cacheState).toBe('hit');
    const byPrefix = await t.api(
      'DELETE',
      `/api/v1/cache?prefix=${encodeURIComponent(`${site.origin}/numbered?case=delete`)}`,
      undefined,
      TEST_KEY_2,
    );
    expect(byPrefix.json).toEqual({ success: true, deleted: 1 });
    expect((await scrape({ url, maxAge: 60_000 }, TEST_KEY_2)).json.cacheState).toBe('miss');
    const neither = await t.api('DELETE', '/api/v1/cache');
    expect(neither.status).toBe(400);
    expect(neither.json.details[0].field).toBe('url');
  });

  it('keeps entries across a restart', async () => {
    const url = `${site.origin}/numbered?case=restart-${backend}`;
    await scrape({ url });
    await t.stop();
    await t.start();
    const after = await scrape({ url, maxAge: 600_000 });
    expect(after.json.cacheState).toBe('hit');
    expect(after.json.markdown).toContain('fetch number 1');
  });

  it('answers 400 naming the field for a bad maxAge', async () => {
    for (const [path, body, field] of [
      ['/api/v1/scrape/single', { url: site.origin, maxAge: -1 }, 'maxAge'],
      ['/api/v1/scrape/batch', { urls: [site.origin], maxAge: 'soon' }, 'maxAge'],
      ['/api/v1/crawl', { url: site.origin, maxAge: 1.5 }, 'maxAge'],
      ['/api/v1/search', { queries: ['x'], scrape: { maxAge: -5 } }, 'scrape.maxAge'],
    ] as const) {
      const { status, json } = await t.api('POST', path, body);
      expect(status, path).toBe(400);
      expect(json.details[0].field, path).toBe(field);
    }
    const v2 = await t.api('POST', '/v2/scrape', { url: site.origin, maxAge: -1 });
    expect(v2.status).toBe(400);
    expect(JSON.stringify(v2.json)).toContain('maxAge');
  });
});

describe.each(['sqlite', 'postgres'] as const)(
  'a shared cache with a small byte budget on %s',
  (backend) => {
    // Room for two of the bulky pages below (about 3 kB each compressed), not three.
    const t = useServer({
      backend,
      settings: { WEBDATA_CACHE_MAX_BYTES: '7000', WEBDATA_CACHE_SHARED: 'true' },
    });
    const scrape = (body: Record<string, unknown>, key?: string) =>
      t.api('POST', '/api/v1/scrape/single', body, key);

    it('serves one key the entry another key stored; deletes stay with the owner', async () => {
      const url = `${site.origin}/numbered?case=shared-${backend}`;
      await scrape({ url });
      const other = await scrape({ url, maxAge: 60_000 }, TEST_KEY_2);
      expect(other.json.cacheState).toBe('hit');
      expect(other.json.markdown).toContain('fetch number 1');
      const notTheirs = await t.api(
        'DELETE',
        `/api/v1/cache?url=${encodeURIComponent(url)}`,
        undefined,
        TEST_KEY_2,
      );
      expect(notTheirs.json.deleted).toBe(0);
    });

    const page = (name: string) =>
      `${site.origin}/numbered?bulk=800&case=budget-${name}-${backend}`;

    it('evicts the least recently used entry to stay within the budget', async () => {
      // Only a page fetched whole is stored: a fetch failed on a loaded machine would leave
      // nothing to evict, so each is checked.
      const store = async (name: string) =>
        expect((await scrape({ url: page(name) })).json).toMatchObject({
          success: true,
          cacheState: 'miss',
        });
      await store('a');
      await store('b');
      // Reading a makes b the least recently used.
      expect((await scrape({ url: page('a'), maxAge: 60_000 })).json.cacheState).toBe('hit');
      await store('c');
      expect((await scrape({ url: page('b'), maxAge: 60_000 })).json.cacheState).toBe('miss');
      expect((await scrape({ url: page('c'), maxAge: 60_000 })).json.cacheState).toBe('hit');
    });
  },
);
