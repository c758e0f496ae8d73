import Firecrawl, { SdkError, type Document } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineServer } from '../fixtures/engine-server.ts';
import { startSearxngServer } from '../fixtures/searxng-server.ts';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.ts';
import { startTestServer, TEST_KEY, TEST_KEY_2, type TestServer } from '../helpers/server.ts';

let site: FixtureSite;
let searx: EngineServer;
let t: TestServer;
let fc: Firecrawl;

beforeAll(async () => {
  site = await startFixtureSite();
  searx = await startSearxngServer([`${site.origin}/article.html`, `${site.origin}/browser/second`]);
  t = await startTestServer({ SEARXNG_URL: searx.origin, WEBDATA_FIRECRAWL_SEARCH_ENGINE: 'searxng', WEBDATA_BROWSER_POOL_SIZE: '1' });
  fc = new Firecrawl({ apiKey: TEST_KEY, apiUrl: t.base });
});
afterAll(async () => {
  await t?.close();
  await searx?.close();
  await site?.close();
});

async function ledgerOps(key = TEST_KEY): Promise<string[]> {
  const user = (await t.server.keys.authenticate(key))!;
  return (await t.server.ledger.forUser(user.userId)).map((r) => r.operation);
}

describe('Firecrawl v2 API through the official SDK', () => {
  it('scrapes one page in several formats, with Firecrawl metadata and our cost', async () => {
    const before = (await ledgerOps()).length;
    const doc: Document = await fc.scrape(`${site.origin}/article.html`, { formats: ['markdown', 'html', 'rawHtml', 'links'], onlyMainContent: true });
    expect(doc.markdown).toContain('Twice a day the ocean pulls back');
    expect(doc.markdown).not.toContain('Subscribe now');
    expect(doc.html).toContain('<table');
    expect(doc.rawHtml).toContain('Subscribe now');
    expect(doc.links).toContain(`${site.origin}/kelp`);
    expect(doc.metadata).toMatchObject({ title: 'How Tide Pools Keep Their Secrets | Coastal Notes', sourceURL: `${site.origin}/article.html`, url: `${site.origin}/article.html`, statusCode: 200, cost: 0.002 });
    expect((await ledgerOps()).slice(before)).toEqual(['scrape']);
  });

  it('defaults to markdown only, and honours includeTags, excludeTags and waitFor', async () => {
    const plain = await fc.scrape(`${site.origin}/article.html`);
    expect(Object.keys(plain).sort()).toEqual(['markdown', 'metadata']);
    const only = await fc.scrape(`${site.origin}/article.html`, { includeTags: ['.byline'], onlyMainContent: false });
    expect(only.markdown?.trim()).toBe('By Marina Okafor');
    const without = await fc.scrape(`${site.origin}/article.html`, { excludeTags: ['table'], waitFor: 50 });
    expect(without.markdown).toContain('Twice a day');
    expect(without.markdown).not.toMatch(/\| Zone\s*\|/);
  });

  it('runs actions (click, write, press, wait) and takes a screenshot', async () => {
    const doc = await fc.scrape(`${site.origin}/browser/form`, {
      formats: ['markdown', { type: 'screenshot', viewport: { width: 800, height: 600 } }],
      actions: [{ type: 'click', selector: '#q' }, { type: 'write', text: 'limpet' }, { type: 'press', key: 'Enter' }, { type: 'wait', selector: 'h1' }],
    });
    expect(doc.markdown).toContain('Results for limpet');
    expect(doc.screenshot).toMatch(/\/files\/.+\.png$/);
    const png = await fetch(`${t.base}${new URL(doc.screenshot!).pathname}`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(doc.metadata?.cost).toBe(0.005);
  });

  it('turns bad or unsupported options into SDK errors naming the field', async () => {
    const err = (await fc.scrape(`${site.origin}/article.html`, { formats: ['markdown', 'branding'] }).catch((e: unknown) => e)) as SdkError;
    expect(err).toBeInstanceOf(SdkError);
    expect(err.status).toBe(400);
    expect(err.message).toContain('formats[1]');
    const action = (await fc.scrape(`${site.origin}/article.html`, { actions: [{ type: 'executeJavascript', script: '1' }] }).catch((e: unknown) => e)) as SdkError;
    expect(action.message).toContain('actions[0].type');
    const unknownField = (await fc.scrape(`${site.origin}/article.html`, { headers: { 'x-a': '1' } }).catch((e: unknown) => e)) as SdkError;
    expect(unknownField.message).toContain('headers');
    const failed = (await fc.scrape(`${site.origin}/status/404`).catch((e: unknown) => e)) as SdkError;
    expect(failed).toBeInstanceOf(SdkError);
    expect(failed.message).toContain('404');
    const refused = (await new Firecrawl({ apiKey: 'wd_wrong_0000000000000000000', apiUrl: t.base }).scrape(`${site.origin}/article.html`).catch((e: unknown) => e)) as SdkError;
    expect(refused.status).toBe(401);
  });

  it('batch-scrapes as a job the SDK polls to completion; failures stay in their item', async () => {
    const job = await fc.batchScrape([`${site.origin}/article.html`, `${site.origin}/browser/second`, `${site.origin}/status/500`], { options: { formats: ['markdown', 'links'] }, pollInterval: 0.2 });
    expect(job.status).toBe('completed');
    expect(job.total).toBe(3);
    expect(job.completed).toBe(3);
    expect(job.data).toHaveLength(3);
    expect(job.data[0]!.markdown).toContain('Twice a day');
    expect(job.data[0]!.links?.length).toBeGreaterThan(3);
    expect(job.data[1]!.markdown).toContain('Reached by a navigate step');
    expect(job.data[2]!.metadata).toMatchObject({ statusCode: 500, sourceURL: `${site.origin}/status/500` });
    expect(job.data[2]!.metadata?.error).toBeTruthy();
    const started = await fc.startBatchScrape([`${site.origin}/article.html`, 'not a url'], { ignoreInvalidURLs: true });
    expect(started.invalidURLs).toEqual(['not a url']);
    expect(started.url).toBe(`${t.base}/v2/batch/scrape/${started.id}`);
    const theirs = new Firecrawl({ apiKey: TEST_KEY_2, apiUrl: t.base });
    const hidden = (await theirs.getBatchScrapeStatus(started.id).catch((e: unknown) => e)) as SdkError;
    expect(hidden.status).toBe(404);
  });

  it('maps a site', async () => {
    const res = await fc.map(`${site.origin}/article.html`, { limit: 50 });
    expect(res.links.length).toBeGreaterThan(0);
    expect(res.links.map((l) => l.url)).toContain(`${site.origin}/kelp`);
  });

  it('searches, and with scrapeOptions returns each result with its content', async () => {
    const bare = await fc.search('tide pools', { limit: 2 });
    expect(bare.web).toEqual([
      expect.objectContaining({ url: `${site.origin}/article.html`, title: 'Result 0', position: 1 }),
      expect.objectContaining({ url: `${site.origin}/browser/second`, title: 'Result 1', position: 2 }),
    ]);
    expect((bare.web![0] as Document).markdown).toBeUndefined();
    const before = (await ledgerOps()).length;
    const full = await fc.search('tide pools', { limit: 2, scrapeOptions: { formats: ['markdown'] } });
    const [first, second] = full.web as Array<Document & { url: string }>;
    expect(first!.url).toBe(`${site.origin}/article.html`);
    expect(first!.markdown).toContain('Twice a day the ocean pulls back');
    expect(second!.markdown).toContain('Reached by a navigate step');
    expect((await ledgerOps()).slice(before).sort()).toEqual(['scrape', 'scrape', 'search']);
    const news = (await fc.search('tide pools', { sources: ['news'] }).catch((e: unknown) => e)) as SdkError;
    expect(news.status).toBe(400);
    expect(news.message).toContain('sources[0]');
  });
});

describe('the same gap closed on the native API', () => {
  it('/v1/search with scrape returns each hit with its page, charged per page', async () => {
    const { status, json } = await t.api('POST', '/api/v1/search', { queries: ['tide pools'], engine: 'searxng', limit: 2, scrape: { formats: ['markdown', 'links'] } });
    expect(status).toBe(200);
    const [first, second] = json.results[0].results;
    expect(first.page).toMatchObject({ url: `${site.origin}/article.html`, success: true, cost: 0.002 });
    expect(first.page.markdown).toContain('Twice a day the ocean pulls back');
    expect(first.page.links).toContain(`${site.origin}/kelp`);
    expect(second.page.markdown).toContain('Reached by a navigate step');
    expect(json.results[0].cost).toBe(0.012);
    expect(json.cost).toBe(0.012);
    const bad = await t.api('POST', '/api/v1/search', { queries: ['tide pools'], engine: 'searxng', scrape: { includeTags: ['a[['] } });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0].field).toBe('scrape.includeTags[0]');
  });
});
