import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { linksPage, startCrawlSite } from '../fixtures/crawl-site.ts';
import { startSearxngServer } from '../fixtures/searxng-server.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, toLoopback, useServer } from '../helpers/server.ts';
import { allPages, waitForJob } from '../jobs/helpers.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const web = useFixture(() =>
  startCrawlSite({
    pages: {
      'docs.test': {
        '/': linksPage('Home', ['/a']),
        '/a': linksPage('A', []),
      },
    },
  }),
);
const searx = useFixture(() => startSearxngServer([`${site.origin}/article.html`]));
const t = useServer({
  settings: () => ({
    SEARXNG_URL: searx.origin,
    WEBDATA_BROWSER_POOL_SIZE: '1',
    WEBDATA_TEST_RESOLVE: toLoopback(web.hosts),
  }),
});

const scrape = (body: Record<string, unknown>) => t.api('POST', '/api/v1/scrape/single', body);
const hits = (path: string) => site.hits.filter((h) => h === path).length;

describe('a caller asks for the engine with method', () => {
  it('http alone: a page that needs JavaScript comes back as HTTP got it, never rendered', async () => {
    const before = hits('/browser/js-only');
    const { status, json } = await scrape({
      url: `${site.origin}/browser/js-only`,
      method: 'http',
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({ success: true, method: 'http', cost: 0.002 });
    expect(json.markdown ?? '').not.toContain('Only a browser sees this sentence');
    expect(hits('/browser/js-only') - before).toBe(1);
  });

  it('http alone: a wall fails at once, saying only http was asked for', async () => {
    const { json } = await scrape({ url: `${site.origin}/browser/always-blocked`, method: 'http' });
    expect(json).toMatchObject({ success: false, cost: 0 });
    expect(json.error).toMatch(/captcha wall.*only http was asked for/);
  });

  it('browser skips HTTP and answers from the headless browser, even for a plain page', async () => {
    const before = hits('/article.html');
    const { json } = await scrape({ url: `${site.origin}/article.html`, method: 'browser' });
    expect(json).toMatchObject({ success: true, method: 'browser', cost: 0.002 });
    expect(json.markdown).toContain('Twice a day the ocean pulls back');
    expect(hits('/article.html') - before).toBe(1);
  });

  it('browser never climbs to browser-stealth: a page that turns it away fails', async () => {
    const { json } = await scrape({ url: `${site.origin}/browser/bot-check`, method: 'browser' });
    expect(json).toMatchObject({ success: false, cost: 0 });
    expect(json.error).toMatch(/still blocked after trying browser$/);
  });

  it('browser-stealth starts there: the page the headless browser is turned away from is served', async () => {
    const before = hits('/browser/bot-check');
    const { json } = await scrape({
      url: `${site.origin}/browser/bot-check`,
      method: 'browser-stealth',
    });
    expect(json).toMatchObject({ success: true, method: 'browser-stealth', cost: 0.002 });
    expect(json.markdown).toContain('Welcome, human visitor');
    expect(hits('/browser/bot-check') - before).toBe(1);
  });

  it('auto is the ladder: HTTP for a plain page', async () => {
    const { json } = await scrape({ url: `${site.origin}/article.html`, method: 'auto' });
    expect(json).toMatchObject({ success: true, method: 'http' });
  });

  it('refuses an unknown method and actions on the http method with 400 naming the field', async () => {
    const unknown = await scrape({ url: `${site.origin}/article.html`, method: 'stealth' });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.json)).toContain('method');
    const actions = await scrape({
      url: `${site.origin}/article.html`,
      method: 'http',
      actions: [{ type: 'wait', milliseconds: 10 }],
    });
    expect(actions.status).toBe(400);
    expect(actions.json.details).toEqual([
      { field: 'method', message: expect.stringContaining('runs no actions') },
    ]);
    const item = await t.api('POST', '/api/v1/scrape/batch', {
      method: 'http',
      urls: [
        `${site.origin}/article.html`,
        { url: `${site.origin}/article.html`, actions: [{ type: 'wait', milliseconds: 10 }] },
      ],
    });
    expect(item.status).toBe(400);
    expect(item.json.details[0].field).toBe('method');
    const own = await t.api('POST', '/api/v1/scrape/batch', {
      urls: [{ url: `${site.origin}/article.html`, method: 'http', actions: [] }],
    });
    expect(own.status).toBe(200);
  });

  it("a batch's method applies to every item; an item's own method wins", async () => {
    const { json } = await t.api('POST', '/api/v1/scrape/batch', {
      method: 'browser',
      urls: [`${site.origin}/article.html`, { url: `${site.origin}/article.html`, method: 'http' }],
    });
    expect(json.results.map((r: { method: string }) => r.method)).toEqual(['browser', 'http']);
    expect(json.cost).toBe(0.004);
  });

  it('an async scrape keeps its method until its item runs', async () => {
    const started = await t.api('POST', '/api/v1/scrape/async/single', {
      url: `${site.origin}/article.html`,
      method: 'browser',
    });
    expect(started.status).toBe(202);
    await waitForJob(t, started.json.url, { timeoutMs: 60_000 });
    const { data } = await allPages(t, started.json.url, 100);
    expect(data).toMatchObject([{ success: true, method: 'browser' }]);
    const refused = await t.api('POST', '/api/v1/scrape/async/single', {
      url: `${site.origin}/article.html`,
      method: 'http',
      actions: [{ type: 'wait', milliseconds: 10 }],
    });
    expect(refused.status).toBe(400);
  });

  it('a sequence runs in the browser asked for; http is a 400 saying why', async () => {
    const sequence = (body: Record<string, unknown>) =>
      t.api('POST', '/api/v1/scrape/sequence', { steps: [{ type: 'scrape' }], ...body });
    const stealthy = await sequence({
      startUrl: `${site.origin}/article.html`,
      method: 'browser-stealth',
    });
    expect(stealthy.json).toMatchObject({
      success: true,
      method: 'browser-stealth',
      completedBreakpoints: 1,
    });
    const headless = await sequence({
      startUrl: `${site.origin}/browser/bot-check`,
      method: 'browser',
    });
    expect(headless.json).toMatchObject({
      success: false,
      method: 'browser',
      failedAtStepIndex: 0,
    });
    expect(headless.json.error).toMatch(/still blocked after trying browser$/);
    const http = await sequence({ startUrl: `${site.origin}/article.html`, method: 'http' });
    expect(http.status).toBe(400);
    expect(http.json.details).toEqual([
      { field: 'method', message: expect.stringContaining('runs its steps in a browser') },
    ]);
  });

  it("MCP's scrape tool takes method from the route's schema", async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TEST_KEY}` } },
      }),
    );
    try {
      const answer = await client.callTool({
        name: 'scrape',
        arguments: { url: `${site.origin}/article.html`, method: 'browser' },
      });
      expect(answer.structuredContent).toMatchObject({ success: true, method: 'browser' });
    } finally {
      await client.close();
    }
  });

  it('a crawl takes method for every page it scrapes', async () => {
    const started = await t.api('POST', '/api/v1/crawl', {
      url: web.url('docs.test', '/'),
      method: 'browser',
      limit: 5,
      sitemap: 'skip',
    });
    expect(started.status).toBe(202);
    await waitForJob(t, started.json.url, { timeoutMs: 60_000 });
    const { data } = await allPages(t, started.json.url, 100);
    expect(data.map((d: { method: string }) => d.method)).toEqual(['browser', 'browser']);
  });

  it("a search's scrape options take method for every hit's page", async () => {
    const { json } = await t.api('POST', '/api/v1/search', {
      queries: ['tide pools'],
      engine: 'searxng',
      limit: 1,
      scrape: { method: 'browser' },
    });
    expect(json.results[0].results[0].page).toMatchObject({ success: true, method: 'browser' });
    const bad = await t.api('POST', '/api/v1/search', {
      queries: ['tide pools'],
      engine: 'searxng',
      scrape: { method: 'fast' },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json.details)).toContain('"field":"scrape.method"');
  });
});
