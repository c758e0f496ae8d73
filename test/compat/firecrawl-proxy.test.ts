import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { linksPage, startCrawlSite } from '../fixtures/crawl-site.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, toLoopback, useServer } from '../helpers/server.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const web = useFixture(() =>
  startCrawlSite({
    pages: { 'docs.test': { '/': linksPage('Home', ['/a']), '/a': linksPage('A', []) } },
  }),
);
const t = useServer({
  settings: () => ({
    WEBDATA_BROWSER_POOL_SIZE: '1',
    WEBDATA_TEST_RESOLVE: toLoopback(web.hosts),
  }),
});
let fc: Firecrawl;
beforeAll(() => {
  fc = new Firecrawl({ apiKey: TEST_KEY, apiUrl: t.base });
});
const hits = (path: string) => site.hits.filter((h) => h === path).length;

describe("Firecrawl's proxy field picks the rung, through the official SDK", () => {
  it('stealth starts at browser-stealth: one request, served, reported as the stealth proxy', async () => {
    const before = hits('/browser/bot-check');
    const doc = await fc.scrape(`${site.origin}/browser/bot-check`, { proxy: 'stealth' });
    expect(doc.markdown).toContain('Welcome, human visitor');
    expect(doc.metadata).toMatchObject({
      proxyUsed: 'stealth',
      method: 'browser-stealth',
      cost: 0.002,
    });
    expect(hits('/browser/bot-check') - before).toBe(1);
    const enhanced = await fc.scrape(`${site.origin}/article.html`, { proxy: 'enhanced' });
    expect(enhanced.metadata).toMatchObject({ proxyUsed: 'stealth', method: 'browser-stealth' });
  });

  it('basic is HTTP then the headless browser, never browser-stealth', async () => {
    const plain = await fc.scrape(`${site.origin}/article.html`, { proxy: 'basic' });
    expect(plain.metadata).toMatchObject({ proxyUsed: 'basic', method: 'http' });
    const rendered = await fc.scrape(`${site.origin}/browser/js-only`, { proxy: 'basic' });
    expect(rendered.markdown).toContain('Only a browser sees this sentence');
    expect(rendered.metadata).toMatchObject({ proxyUsed: 'basic', method: 'browser' });
    const blocked = (await fc
      .scrape(`${site.origin}/browser/bot-check`, { proxy: 'basic' })
      .catch((e: unknown) => e)) as SdkError;
    expect(blocked).toBeInstanceOf(SdkError);
    expect(blocked.message).toMatch(/still blocked after trying http, browser$/);
  });

  it('auto (the default) climbs the whole ladder', async () => {
    const doc = await fc.scrape(`${site.origin}/browser/bot-check`, { proxy: 'auto' });
    expect(doc.metadata).toMatchObject({ proxyUsed: 'stealth', method: 'browser-stealth' });
  });

  it('refuses an unknown proxy type, naming the field', async () => {
    const err = (await fc
      .scrape(`${site.origin}/article.html`, { proxy: 'residential' })
      .catch((e: unknown) => e)) as SdkError;
    expect(err).toBeInstanceOf(SdkError);
    expect(err.status).toBe(400);
    expect(err.message).toContain('proxy');
    const crawl = (await fc
      .startCrawl(web.url('docs.test', '/'), { scrapeOptions: { proxy: 'residential' } })
      .catch((e: unknown) => e)) as SdkError;
    expect(crawl.status).toBe(400);
    expect(crawl.message).toContain('scrapeOptions.proxy');
  });

  it('batch scrape and crawl honour it for every page', async () => {
    const batch = await fc.batchScrape([`${site.origin}/article.html`], {
      options: { proxy: 'stealth' },
      pollInterval: 0.2,
    });
    expect(batch.data.map((d) => d.metadata?.method)).toEqual(['browser-stealth']);
    const crawl = await fc.crawl(web.url('docs.test', '/'), {
      scrapeOptions: { proxy: 'basic' },
      sitemap: 'skip',
      pollInterval: 0.2,
    });
    expect(crawl.data.map((d) => d.metadata?.proxyUsed)).toEqual(['basic', 'basic']);
    const stealthy = await fc.crawl(web.url('docs.test', '/'), {
      scrapeOptions: { proxy: 'stealth' },
      sitemap: 'skip',
      pollInterval: 0.2,
    });
    expect(stealthy.data.map((d) => d.metadata?.method)).toEqual([
      'browser-stealth',
      'browser-stealth',
    ]);
  });
});
