import Firecrawl, { type Document, SdkError } from '@mendable/firecrawl-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { linksPage, startCrawlSite } from '../fixtures/crawl-site.ts';
import { startSearxngServer } from '../fixtures/searxng-server.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, TEST_KEY_2, toLoopback, useServer } from '../helpers/server.ts';

const site = useFixture(() => startFixtureSite());
const searx = useFixture(() =>
  startSearxngServer([`${site.origin}/article.html`, `${site.origin}/browser/second`]),
);
const web = useFixture(() =>
  startCrawlSite({
    generated: [
      { host: 'tree.test', pages: 130, fanout: 5, sitemap: false },
      { host: 'slow.test', pages: 200, fanout: 5, sitemap: false, pageDelayMs: 400 },
    ],
    pages: {
      'docs.test': {
        '/': linksPage('Home', ['/docs', '/blog/x']),
        '/docs': linksPage('Docs', ['/', '/docs/a', '/blog/x', '/docs/broken']),
        '/docs/a': linksPage('A', ['/docs/b', '/docs/private/c']),
        '/docs/b': linksPage('B', []),
        '/docs/private/c': linksPage('C', []),
        '/docs/broken': () => ({ status: 500, type: 'text/html', body: '<p>down</p>' }),
        '/blog/x': linksPage('X', []),
      },
    },
  }),
);
const t = useServer({
  settings: () => ({
    SEARXNG_URL: searx.origin,
    WEBDATA_FIRECRAWL_SEARCH_ENGINE: 'searxng',
    WEBDATA_BROWSER_POOL_SIZE: '1',
    WEBDATA_TEST_RESOLVE: toLoopback(web.hosts),
    WEBDATA_JOB_CONCURRENCY: '8',
  }),
});
let fc: Firecrawl;
beforeAll(() => {
  fc = new Firecrawl({ apiKey: TEST_KEY, apiUrl: t.base });
});

const ledgerOps = async (key = TEST_KEY): Promise<string[]> =>
  (await t.ledger(key)).map((r) => r.operation);

describe('Firecrawl v2 API through the official SDK', () => {
  it('scrapes one page in several formats, with Firecrawl metadata and our cost', async () => {
    const before = (await ledgerOps()).length;
    const doc: Document = await fc.scrape(`${site.origin}/article.html`, {
      formats: ['markdown', 'html', 'rawHtml', 'links'],
      onlyMainContent: true,
    });
    expect(doc.markdown).toContain('Twice a day the ocean pulls back');
    expect(doc.markdown).not.toContain('Subscribe now');
    expect(doc.html).toContain('<table');
    expect(doc.rawHtml).toContain('Subscribe now');
    expect(doc.links).toContain(`${site.origin}/kelp`);
    expect(doc.metadata).toMatchObject({
      title: 'How Tide Pools Keep Their Secrets | Coastal Notes',
      sourceURL: `${site.origin}/article.html`,
      url: `${site.origin}/article.html`,
      statusCode: 200,
      cost: 0.002,
    });
    expect((await ledgerOps()).slice(before)).toEqual(['scrape']);
  });

  it('defaults to markdown only, and honours includeTags, excludeTags and waitFor', async () => {
    const plain = await fc.scrape(`${site.origin}/article.html`);
    expect(Object.keys(plain).sort()).toEqual(['markdown', 'metadata']);
    const only = await fc.scrape(`${site.origin}/article.html`, {
      includeTags: ['.byline'],
      onlyMainContent: false,
    });
    expect(only.markdown?.trim()).toBe('By Marina Okafor');
    const without = await fc.scrape(`${site.origin}/article.html`, {
      excludeTags: ['table'],
      waitFor: 50,
    });
    expect(without.markdown).toContain('Twice a day');
    expect(without.markdown).not.toMatch(/\| Zone\s*\|/);
  });

  it('runs actions (click, write, press, wait) and takes a screenshot', async () => {
    const doc = await fc.scrape(`${site.origin}/browser/form`, {
      formats: ['markdown', { type: 'screenshot', viewport: { width: 800, height: 600 } }],
      actions: [
        { type: 'click', selector: '#q' },
        { type: 'write', text: 'limpet' },
        { type: 'press', key: 'Enter' },
        { type: 'wait', selector: 'h1' },
      ],
    });
    expect(doc.markdown).toContain('Results for limpet');
    expect(doc.screenshot).toMatch(/\/files\/.+\.png$/);
    const png = await fetch(`${t.base}${new URL(doc.screenshot!).pathname}`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(doc.metadata?.cost).toBe(0.005);
  });

  it('turns bad or unsupported options into SDK errors naming the field', async () => {
    const err = (await fc
      .scrape(`${site.origin}/article.html`, { formats: ['markdown', 'branding'] })
      .catch((e: unknown) => e)) as SdkError;
    expect(err).toBeInstanceOf(SdkError);
    expect(err.status).toBe(400);
    expect(err.message).toContain('formats[1]');
    const action = (await fc
      .scrape(`${site.origin}/article.html`, {
        actions: [{ type: 'executeJavascript', script: '1' }],
      })
      .catch((e: unknown) => e)) as SdkError;
    expect(action.message).toContain('actions[0].type');
    const unknownField = (await fc
      .scrape(`${site.origin}/article.html`, { headers: { 'x-a': '1' } })
      .catch((e: unknown) => e)) as SdkError;
    expect(unknownField.message).toContain('headers');
    const failed = (await fc
      .scrape(`${site.origin}/status/404`)
      .catch((e: unknown) => e)) as SdkError;
    expect(failed).toBeInstanceOf(SdkError);
    expect(failed.message).toContain('404');
    const refused = (await new Firecrawl({ apiKey: 'wd_wrong_0000000000000000000', apiUrl: t.base })
      .scrape(`${site.origin}/article.html`)
      .catch((e: unknown) => e)) as SdkError;
    expect(refused.status).toBe(401);
  });

  it("holds a screenshot viewport to the native screenshot's bounds, naming the side", async () => {
    const cases: Array<[unknown, string]> = [
      [{ width: 319 }, 'formats[1].viewport.width'],
      [{ height: 600.5 }, 'formats[1].viewport.height'],
      [{ width: '800' }, 'formats[1].viewport.width'],
      ['big', 'formats[1].viewport'],
      [{ width: 800, height: 10_000_000 }, 'formats[1].viewport.height'],
      [{ width: 10_000_000, height: 10_000_000 }, 'formats[1].viewport.width'],
    ];
    for (const [viewport, field] of cases) {
      const { status, json } = await t.api('POST', '/v2/scrape', {
        url: `${site.origin}/article.html`,
        formats: ['markdown', { type: 'screenshot', viewport }],
      });
      expect(status, field).toBe(400);
      expect(json.details[0].field, JSON.stringify(viewport)).toBe(field);
    }
    const sdk = (await fc
      .scrape(`${site.origin}/article.html`, {
        formats: [{ type: 'screenshot', viewport: { width: 10_000_000, height: 10_000_000 } }],
      })
      .catch((e: unknown) => e)) as SdkError;
    expect(sdk.status).toBe(400);
    expect(sdk.message).toContain('from 320 to 3840');
  });

  it('batch-scrapes as a job the SDK polls to completion; failures stay in their item', async () => {
    const job = await fc.batchScrape(
      [`${site.origin}/article.html`, `${site.origin}/browser/second`, `${site.origin}/status/500`],
      { options: { formats: ['markdown', 'links'] }, pollInterval: 0.2 },
    );
    expect(job.status).toBe('completed');
    expect(job.total).toBe(3);
    expect(job.completed).toBe(3);
    expect(job.data).toHaveLength(3);
    expect(job.data[0]!.markdown).toContain('Twice a day');
    expect(job.data[0]!.links?.length).toBeGreaterThan(3);
    expect(job.data[1]!.markdown).toContain('Reached by a navigate step');
    expect(job.data[2]!.metadata).toMatchObject({
      statusCode: 500,
      sourceURL: `${site.origin}/status/500`,
    });
    expect(job.data[2]!.metadata?.error).toBeTruthy();
    const started = await fc.startBatchScrape([`${site.origin}/article.html`, 'not a url'], {
      ignoreInvalidURLs: true,
    });
    expect(started.invalidURLs).toEqual(['not a url']);
    expect(started.url).toBe(`${t.base}/v2/batch/scrape/${started.id}`);
    const theirs = new Firecrawl({ apiKey: TEST_KEY_2, apiUrl: t.base });
    const hidden = (await theirs
      .getBatchScrapeStatus(started.id)
      .catch((e: unknown) => e)) as SdkError;
    expect(hidden.status).toBe(404);
    // Run to its end here: a page it scraped later would be charged inside another test's count.
    let status = await fc.getBatchScrapeStatus(started.id);
    for (const deadline = Date.now() + 20_000; status.status === 'scraping'; ) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
      status = await fc.getBatchScrapeStatus(started.id);
    }
    expect(status).toMatchObject({ status: 'completed', total: 1, completed: 1 });
  });

  it('maps a site', async () => {
    const res = await fc.map(`${site.origin}/article.html`, { limit: 50 });
    expect(res.links.length).toBeGreaterThan(0);
    expect(res.links.map((l) => l.url)).toContain(`${site.origin}/kelp`);
    // The same input rules as the native /v1/map: a start URL with credentials is refused by name.
    const refused = (await fc
      .map(site.origin.replace('http://', 'http://user:secret@'))
      .catch((e: unknown) => e)) as SdkError;
    expect(refused).toBeInstanceOf(SdkError);
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/url: .*credentials/);
  });

  it('searches, and with scrapeOptions returns each result with its content', async () => {
    const bare = await fc.search('tide pools', { limit: 2 });
    expect(bare.web).toEqual([
      expect.objectContaining({
        url: `${site.origin}/article.html`,
        title: 'Result 0',
        position: 1,
      }),
      expect.objectContaining({
        url: `${site.origin}/browser/second`,
        title: 'Result 1',
        position: 2,
      }),
    ]);
    expect((bare.web![0] as Document).markdown).toBeUndefined();
    const before = (await ledgerOps()).length;
    const full = await fc.search('tide pools', {
      limit: 2,
      scrapeOptions: { formats: ['markdown'] },
    });
    const [first, second] = full.web as Array<Document & { url: string }>;
    expect(first!.url).toBe(`${site.origin}/article.html`);
    expect(first!.markdown).toContain('Twice a day the ocean pulls back');
    expect(second!.markdown).toContain('Reached by a navigate step');
    expect((await ledgerOps()).slice(before).sort()).toEqual(['scrape', 'scrape', 'search']);
    const news = (await fc
      .search('tide pools', { sources: ['news'] })
      .catch((e: unknown) => e)) as SdkError;
    expect(news.status).toBe(400);
    expect(news.message).toContain('sources[0]');
  });
});

describe('Firecrawl crawl through the official SDK', { timeout: 120_000 }, () => {
  const paths = (docs: Document[]) =>
    docs.map((d) => new URL(d.metadata!.sourceURL as string).pathname).sort();

  it('crawl() waits to completion and pages through more than 100 documents with next', async () => {
    const before = (await ledgerOps()).length;
    const job = await fc.crawl(web.url('tree.test', '/'), {
      limit: 110,
      scrapeOptions: { formats: ['markdown', 'links'] },
      pollInterval: 0.2,
    });
    expect(job.status).toBe('completed');
    expect([job.total, job.completed]).toEqual([110, 110]);
    expect(job.data).toHaveLength(110);
    expect(new Set(job.data.map((d) => d.metadata?.sourceURL)).size).toBe(110);
    const home = job.data.find((d) => d.metadata?.sourceURL === web.url('tree.test', '/'))!;
    expect(home.markdown).toContain('# Page 0\n\nThe quick brown fox');
    expect(home.links).toContain(web.url('tree.test', '/p/1'));
    expect(home.metadata).toMatchObject({ statusCode: 200, title: 'Page 0', cost: 0.002 });
    expect((await ledgerOps()).slice(before)).toEqual(Array(110).fill('scrape'));
  });

  it('keeps under the start path unless crawlEntireDomain; maps depth, path patterns and errors', async () => {
    const under = await fc.crawl(web.url('docs.test', '/docs'), { pollInterval: 0.2 });
    expect(paths(under.data)).toEqual([
      '/docs',
      '/docs/a',
      '/docs/b',
      '/docs/broken',
      '/docs/private/c',
    ]);
    const whole = await fc.crawl(web.url('docs.test', '/docs'), {
      crawlEntireDomain: true,
      maxDiscoveryDepth: 1,
      excludePaths: ['^/docs/broken$'],
      pollInterval: 0.2,
    });
    expect(paths(whole.data)).toEqual(['/', '/blog/x', '/docs', '/docs/a']);
    const only = await fc.crawl(web.url('docs.test', '/'), {
      includePaths: ['^/docs/[ab]$'],
      crawlEntireDomain: true,
      pollInterval: 0.2,
    });
    expect(paths(only.data)).toEqual(['/']);
    const started = await fc.startCrawl(web.url('docs.test', '/docs'), {
      excludePaths: ['private'],
      scrapeOptions: { formats: ['html'], onlyMainContent: false },
    });
    expect(started.url).toBe(`${t.base}/v2/crawl/${started.id}`);
    let status;
    do status = await fc.getCrawlStatus(started.id);
    while (status.status === 'scraping');
    expect(paths(status.data)).toEqual(['/docs', '/docs/a', '/docs/b', '/docs/broken']);
    expect(
      status.data.find((d) => d.metadata?.sourceURL === web.url('docs.test', '/docs/a'))!.html,
    ).toContain('<a href="/docs/b">');
    const { errors, robotsBlocked } = await fc.getCrawlErrors(started.id);
    expect(errors).toEqual([
      expect.objectContaining({ url: web.url('docs.test', '/docs/broken') }),
    ]);
    expect(robotsBlocked).toEqual([]);
  });

  it('startCrawl, getCrawlStatus and cancelCrawl; another key sees none of it', async () => {
    const { id } = await fc.startCrawl(web.url('slow.test', '/'), { limit: 200 });
    const running = await fc.getCrawlStatus(id, { autoPaginate: false });
    expect(running.status).toBe('scraping');
    const theirs = new Firecrawl({ apiKey: TEST_KEY_2, apiUrl: t.base });
    expect(((await theirs.getCrawlStatus(id).catch((e: unknown) => e)) as SdkError).status).toBe(
      404,
    );
    expect(((await theirs.cancelCrawl(id).catch((e: unknown) => e)) as SdkError).status).toBe(404);
    expect(await fc.cancelCrawl(id)).toBe(true);
    const cancelled = await fc.getCrawlStatus(id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.total).toBeLessThan(200);
    // A batch is not a crawl, nor the other way round.
    expect(((await fc.getBatchScrapeStatus(id).catch((e: unknown) => e)) as SdkError).status).toBe(
      404,
    );
  });

  it('refuses what a crawl cannot do, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ scrapeOptions: { actions: [{ type: 'click', selector: 'a' }] } }, 'scrapeOptions.actions'],
      [{ scrapeOptions: { formats: ['screenshot'] } }, 'scrapeOptions.formats'],
      [{ scrapeOptions: { waitFor: 100 } }, 'scrapeOptions.waitFor'],
      [{ allowExternalLinks: true }, 'allowExternalLinks'],
      [{ prompt: 'only the docs' }, 'prompt'],
      [{ includePaths: ['(?=x)'] }, 'includePaths[0]'],
      [{ limit: 10_001 }, 'limit'],
    ];
    for (const [options, field] of cases) {
      const err = (await fc
        .startCrawl(web.url('docs.test', '/'), options)
        .catch((e: unknown) => e)) as SdkError;
      expect(err.status, field).toBe(400);
      expect(err.message, field).toContain(field);
    }
    const bad = (await fc.startCrawl('ftp://docs.test/').catch((e: unknown) => e)) as SdkError;
    expect(bad.message).toContain('url');
  });
});

describe('the same gap closed on the native API', () => {
  it('/v1/search with scrape returns each hit with its page, charged per page', async () => {
    const { status, json } = await t.api('POST', '/api/v1/search', {
      queries: ['tide pools'],
      engine: 'searxng',
      limit: 2,
      scrape: { formats: ['markdown', 'links'] },
    });
    expect(status).toBe(200);
    const [first, second] = json.results[0].results;
    expect(first.page).toMatchObject({
      url: `${site.origin}/article.html`,
      success: true,
      cost: 0.002,
    });
    expect(first.page.markdown).toContain('Twice a day the ocean pulls back');
    expect(first.page.links).toContain(`${site.origin}/kelp`);
    expect(second.page.markdown).toContain('Reached by a navigate step');
    expect(json.results[0].cost).toBe(0.012);
    expect(json.cost).toBe(0.012);
    const bad = await t.api('POST', '/api/v1/search', {
      queries: ['tide pools'],
      engine: 'searxng',
      scrape: { includeTags: ['a[['] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0].field).toBe('scrape.includeTags[0]');
  });
});
