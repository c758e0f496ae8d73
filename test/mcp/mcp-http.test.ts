import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { JOB_TEXT_LIMITS } from '../../src/mcp/render.ts';
import { startCrawlSite, TREE_SITE } from '../fixtures/crawl-site.ts';
import { startSearxngServer } from '../fixtures/searxng-server.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { call, type ToolResult, textOf, useMcpClients } from '../helpers/mcp.ts';
import { waitFor } from '../helpers/poll.ts';
import { TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';
import { expectCompleted } from '../jobs/helpers.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite());
const searx = useFixture(() =>
  startSearxngServer([`${site.origin}/article.html`, `${site.origin}/browser/second`]),
);
const web = useFixture(() => startCrawlSite({ generated: [TREE_SITE] }));
const t = useServer({
  settings: () => ({
    SEARXNG_URL: searx.origin,
    WEBDATA_BROWSER_POOL_SIZE: '1',
    WEBDATA_TEST_RESOLVE: `tree.test=127.0.0.1`,
  }),
});
const clients = useMcpClients(t);

/** The job_status answer once the job completed. */
const completedJob = (client: Client, args: Record<string, unknown>) =>
  waitFor(
    async () => {
      const status = await call(client, 'job_status', args);
      return status.structuredContent.status === 'completed' && status;
    },
    { timeoutMs: 60_000, everyMs: 100 },
  );

describe('MCP over Streamable HTTP at /mcp', () => {
  it('lists one tool per route, with the route schema as its input schema', async () => {
    const client = await clients.http(TEST_KEY);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'search',
        'scrape',
        'batch_scrape',
        'map',
        'crawl',
        'screenshot',
        'pdf_from_url',
        'pdf_from_html',
        'sequence',
        'job_status',
        'job_list',
        'job_cancel',
        'session_create',
        'session_close',
      ]),
    );
    const openapi = (await t.api('GET', '/openapi.json')).json;
    const scrape = tools.find((tool) => tool.name === 'scrape')!;
    const body =
      openapi.paths['/api/v1/scrape/single'].post.requestBody.content['application/json'].schema;
    expect(scrape.inputSchema.properties).toEqual(body.properties);
    expect(scrape.inputSchema.required).toEqual(['url']);
    expect(scrape.outputSchema?.properties).toHaveProperty('markdown');
    const crawl = tools.find((tool) => tool.name === 'crawl')!;
    expect(crawl.inputSchema.properties).toEqual(
      openapi.paths['/api/v1/crawl'].post.requestBody.content['application/json'].schema.properties,
    );
    expect(Object.keys(crawl.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining([
        'url',
        'limit',
        'maxDepth',
        'includePaths',
        'excludePaths',
        'sitemap',
      ]),
    );
    const job = tools.find((tool) => tool.name === 'job_status')!;
    expect(job.inputSchema.required).toEqual(['id']);
    expect(Object.keys(job.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'offset', 'limit']),
    );
  });

  it('scrapes a page: markdown as text, the API result as structuredContent, charged to the key', async () => {
    const client = await clients.http(TEST_KEY);
    const user = (await t.server.keys.authenticate(TEST_KEY))!;
    const before = (await t.server.ledger.forUser(user.userId)).length;
    const res = await call(client, 'scrape', { url: `${site.origin}/article.html` });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ success: true, statusCode: 200, cost: 0.002 });
    expect(res.structuredContent.markdown).toContain('Twice a day the ocean pulls back');
    expect(textOf(res)).toContain('Twice a day the ocean pulls back');
    expect(textOf(res)).toContain('cost: $0.002');
    const rows = await t.server.ledger.forUser(user.userId);
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toMatchObject({ operation: 'scrape' });
  });

  it('serves a scrape with maxAge from the cache, and cache_delete forgets it', async () => {
    const client = await clients.http(TEST_KEY);
    const url = `${site.origin}/article.html?mcp=cache`;
    const first = await call(client, 'scrape', { url, maxAge: 60_000 });
    expect(first.structuredContent.cacheState).toBe('miss');
    const second = await call(client, 'scrape', { url, maxAge: 60_000 });
    expect(second.structuredContent).toMatchObject({ cacheState: 'hit', cost: 0.002 });
    const deleted = await call(client, 'cache_delete', { url });
    expect(deleted.structuredContent).toEqual({ success: true, deleted: 1 });
    const third = await call(client, 'scrape', { url, maxAge: 60_000 });
    expect(third.structuredContent.cacheState).toBe('miss');
  });

  it('answers a bad argument with a tool error naming the field, and a failed page as an error too', async () => {
    const client = await clients.http(TEST_KEY);
    const bad = await call(client, 'scrape', { url: `${site.origin}/article.html`, type: 'pdf' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^HTTP 400: type: /);
    const unknown = await call(client, 'scrape', {
      url: `${site.origin}/article.html`,
      colour: 'red',
    });
    expect(textOf(unknown)).toContain('colour: is not a known field');
    const relative = await call(client, 'scrape', { url: '/article.html' });
    expect(textOf(relative)).toContain('- url:');
    const missing = await call(client, 'job_status', {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('id: is required');
    const gone = await call(client, 'scrape', { url: `${site.origin}/status/404` });
    expect(gone.isError).toBe(true);
    expect(gone.structuredContent).toMatchObject({ success: false, statusCode: 404, cost: 0 });
    expect(textOf(gone)).toContain('failed:');
  });

  it('runs search, batch, map, sequence and PDF tools against the fixture web', async () => {
    const client = await clients.http(TEST_KEY);
    const search = await call(client, 'search', { queries: ['tide pools'], engine: 'searxng' });
    expect(search.structuredContent.results[0].results[0].url).toBe(`${site.origin}/article.html`);
    expect(textOf(search)).toContain(`- [Result 0](${site.origin}/article.html)`);

    const batch = await call(client, 'batch_scrape', {
      urls: [`${site.origin}/article.html`, `${site.origin}/status/500`],
    });
    expect(batch.structuredContent).toMatchObject({
      total: 2,
      successful: 1,
      failed: 1,
      cost: 0.002,
    });
    expect(textOf(batch)).toContain(`## ${site.origin}/article.html`);
    expect(textOf(batch)).toContain('Twice a day the ocean pulls back');

    const map = await call(client, 'map', { url: `${site.origin}/article.html` });
    expect(map.structuredContent.success).toBe(true);
    expect(map.structuredContent.links.length).toBeGreaterThan(0);
    expect(textOf(map).split('\n')).toContain(map.structuredContent.links[0]);

    const sequence = await call(client, 'sequence', {
      startUrl: `${site.origin}/browser/form`,
      steps: [
        { type: 'type', selector: '#q', text: 'anemone' },
        { type: 'press', key: 'Enter' },
        { type: 'waitForSelector', selector: 'h1' },
        { type: 'scrape' },
      ],
    });
    expect(sequence.structuredContent).toMatchObject({ success: true, completedBreakpoints: 1 });
    expect(textOf(sequence)).toContain('Results for anemone');

    const pdf = await call(client, 'pdf_from_html', {
      html: '<h1>Tide table</h1>',
      title: 'tides',
    });
    expect(pdf.structuredContent).toMatchObject({ success: true });
    expect(pdf.structuredContent.url).toMatch(/\/files\/.+\.pdf$/);
  });

  it('returns a screenshot as an image content block', async () => {
    const client = await clients.http(TEST_KEY);
    const shot = await call(client, 'screenshot', {
      url: `${site.origin}/browser/tall`,
      fullPage: false,
      width: 800,
      height: 600,
    });
    expect(shot.isError).toBeFalsy();
    const image = shot.content.find((c) => c.type === 'image')!;
    expect(image.mimeType).toBe('image/png');
    const png = PNG.sync.read(Buffer.from(image.data!, 'base64'));
    expect([png.width, png.height]).toEqual([800, 600]);
    expect(shot.structuredContent).toMatchObject({
      success: true,
      width: 800,
      height: 600,
      cost: 0.003,
    });
  });

  it('starts a job and shows it to its owner only: another key can neither read nor cancel it', async () => {
    const mine = await clients.http(TEST_KEY);
    const theirs = await clients.http(TEST_KEY_2);
    const started = await call(mine, 'start_batch_scrape', {
      urls: [`${site.origin}/article.html`],
    });
    const id = started.structuredContent.id as string;
    expect(id).toBeTruthy();
    const status = await completedJob(mine, { id });
    expect(status.structuredContent.data[0]).toMatchObject({
      url: `${site.origin}/article.html`,
      success: true,
    });
    expect(textOf(status)).toContain(`job ${id}: completed (1/1)`);
    const list = await call(mine, 'job_list', { limit: 5 });
    expect(list.structuredContent.jobs.map((j: { id: string }) => j.id)).toContain(id);

    const hidden = await call(theirs, 'job_status', { id });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toContain('HTTP 404');
    expect((await call(theirs, 'job_list', {})).structuredContent.jobs).toEqual([]);
    expect((await call(theirs, 'job_cancel', { id })).isError).toBe(true);
  });

  it('bounds the text of job_status: each page its opening, then URLs only; structuredContent keeps every page whole', async () => {
    const client = await clients.http(TEST_KEY);
    const { pageChars, totalChars } = JOB_TEXT_LIMITS;
    const shownPages = Math.ceil(totalChars / pageChars);
    const urls = Array.from(
      { length: shownPages + 2 },
      (_, i) => `${site.origin}/long-article?paragraphs=${40 + i}`,
    );
    const id = (await call(client, 'start_batch_scrape', { urls })).structuredContent.id as string;
    let status: ToolResult;
    for (;;) {
      status = await call(client, 'job_status', { id, limit: String(urls.length) });
      if (status.structuredContent.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const pages = status.structuredContent.data as Array<{ url: string; markdown: string }>;
    expect(pages).toHaveLength(urls.length);
    expect(pages.every((p) => p.markdown.length > pageChars)).toBe(true);
    expect(pages[0]!.markdown).toContain('Paragraph 40 of');
    const text = textOf(status);
    expect(text.length).toBeLessThan(totalChars + 10_000);
    expect(text.match(/^## /gm)).toHaveLength(shownPages);
    expect(text).toContain(
      `[… first ${pageChars} of ${pages[0]!.markdown.length} characters; the whole page is in structuredContent.data, under this URL]`,
    );
    expect(text).not.toContain('Paragraph 40 of');
    for (const page of pages.slice(shownPages)) expect(text).toContain(`\n- ${page.url}`);
    expect(text).toContain('2 more pages listed by URL only');
  });

  it('crawls a site as a job whose pages job_status reads, to its owner only', async () => {
    const mine = await clients.http(TEST_KEY);
    const theirs = await clients.http(TEST_KEY_2);
    const started = await call(mine, 'crawl', {
      url: web.url('tree.test', '/'),
      limit: 5,
      maxDepth: 1,
      excludePaths: ['^/p/2$'],
    });
    expect(started.isError).toBeFalsy();
    const id = started.structuredContent.id as string;
    expect(textOf(started)).toContain(`job ${id} started: call job_status with id "${id}"`);
    const status = await completedJob(mine, { id, limit: '10' });
    // Depth 1 from the home page: its three children, less the excluded one.
    const urls = ['/', '/p/1', '/p/3'].map((p) => web.url('tree.test', p));
    expectCompleted(status.structuredContent, 'crawl', 3, 0.006);
    expect(status.structuredContent.data.map((d: { url: string }) => d.url).sort()).toEqual(
      urls.sort(),
    );
    expect(
      status.structuredContent.data.find((d: { url: string }) => d.url === urls[0]),
    ).toMatchObject({ depth: 0, foundOn: null, success: true });
    const text = textOf(status);
    expect(text).toContain(`job ${id}: completed (3/3)`);
    for (const url of urls) expect(text).toContain(`## ${url}\n\n`);
    expect(text).toContain('# Page 3\n\nfox jumps over the lazy dog');
    expect(text).toContain('cost: $0.006');
    const second = await call(mine, 'job_status', { id, offset: '2', limit: '1' });
    expect(second.structuredContent.data).toHaveLength(1);

    expect((await call(theirs, 'job_status', { id })).isError).toBe(true);
    const bad = await call(mine, 'crawl', {
      url: web.url('tree.test', '/'),
      includePaths: ['(?=x)'],
    });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('- includePaths[0]:');
  });

  it('creates and closes a browser session', async () => {
    const client = await clients.http(TEST_KEY);
    const created = await call(client, 'session_create', { width: 800, height: 600 });
    expect(created.isError).toBeFalsy();
    const id = created.structuredContent.sessionId as string;
    expect(created.structuredContent.wsUrl).toContain(id);
    const closed = await call(client, 'session_close', { id });
    expect(closed.structuredContent).toMatchObject({
      sessionId: id,
      status: 'closed',
      closeReason: 'manual',
    });
  });

  it('refuses a made-up delegation header: only the tool calls of an authenticated /mcp request are delegated', async () => {
    const forged = await fetch(`${t.base}/api/v1/scrape/single`, {
      method: 'POST',
      headers: {
        authorization: `Delegate ${crypto.randomUUID()}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ url: `${site.origin}/article.html` }),
    });
    expect(forged.status).toBe(401);
  });

  it('refuses a wrong key, and a GET stream it does not offer', async () => {
    await expect(clients.http('wd_not_a_real_key_000000000000')).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('invalid or revoked API key'),
    });
    const get = await fetch(`${t.base}/mcp`, {
      headers: { authorization: `Bearer ${TEST_KEY}`, accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
  });
});

// Each client starts a Node process (and the embedded one a whole service): seconds on a loaded machine.
