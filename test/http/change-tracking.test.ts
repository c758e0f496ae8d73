import { describe, expect, it } from 'vitest';
import { sendHtml } from '../fixtures/site/respond.ts';
import type { FixtureHandler } from '../fixtures/site/server.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';

/**
 * A news page the test edits between scrapes: its paragraphs, and the parts that change on every
 * visit without the page changing (a clock, a view counter, whitespace); `gone` makes it a 404.
 */
const original = () => ({
  paragraphs: [
    'The harbour board met on Tuesday to discuss the new ferry timetable for the summer season.',
    'Residents asked for an earlier morning crossing so that commuters reach the mainland by eight.',
    'The board will publish its decision after consulting the ferry operator next month.',
  ],
  clock: '09:14',
  views: 1203,
  indent: '',
  gone: false,
});
let page = original();
const tracked: FixtureHandler = (_req, res) => {
  if (page.gone) {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<html><body><h1>Not Found</h1></body></html>');
    return;
  }
  sendHtml(
    res,
    `<!doctype html><html><head><title>Harbour news</title></head><body><main><article><h1>Ferry timetable</h1><p>Updated ${page.clock} · ${page.views} views</p>${page.paragraphs.map((p) => `<p>${page.indent}${p}</p>`).join('\n')}</article></main></body></html>`,
  );
};

const site = useFixture(() => startFixtureSite({ '/tracked/*': tracked }));

describe.each(['sqlite', 'postgres'] as const)('change tracking on %s', (backend) => {
  const t = useServer({ backend });
  const pageUrl = () => `${site.origin}/tracked/${backend}`;
  const track = (extra: Record<string, unknown> = {}, key?: string) =>
    t.api(
      'POST',
      '/api/v1/scrape/single',
      {
        url: pageUrl(),
        formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'], ...extra }],
      },
      key,
    );

  it('says new, then same across volatile parts, then changed with a diff naming the edit, then removed', async () => {
    page = original();
    const first = await track();
    expect(first.status).toBe(200);
    expect(first.json.changeTracking).toEqual({
      changeStatus: 'new',
      previousScrapeAt: null,
      visibility: 'visible',
    });

    page.clock = '17:52';
    page.views = 4821;
    page.indent = '   ';
    const second = await track();
    expect(second.json.changeTracking).toMatchObject({
      changeStatus: 'same',
      previousScrapeAt: first.json.timestamp,
    });
    expect(second.json.changeTracking.diff).toBeUndefined();

    page.paragraphs[1] =
      'Residents asked for an earlier morning crossing and a later evening one on Fridays.';
    const third = await track();
    expect(third.json.changeTracking).toMatchObject({
      changeStatus: 'changed',
      previousScrapeAt: second.json.timestamp,
    });
    const diff: string = third.json.changeTracking.diff.text;
    expect(diff).toContain(
      '-Residents asked for an earlier morning crossing so that commuters reach the mainland by eight.',
    );
    expect(diff).toContain(
      '+Residents asked for an earlier morning crossing and a later evening one on Fridays.',
    );
    expect(diff).not.toMatch(/^[-+]The harbour board/m);

    // Another key and another tag have histories of their own.
    expect((await track({}, TEST_KEY_2)).json.changeTracking.changeStatus).toBe('new');
    expect((await track({ tag: 'weekly' })).json.changeTracking).toMatchObject({
      changeStatus: 'new',
      tag: 'weekly',
    });

    page.gone = true;
    const fourth = await track();
    expect(fourth.json.success).toBe(false);
    expect(fourth.json.changeTracking).toMatchObject({
      changeStatus: 'removed',
      previousScrapeAt: third.json.timestamp,
      visibility: 'hidden',
    });
    page.gone = false;
    expect((await track()).json.changeTracking.changeStatus).toBe('new');
  });

  it('is never served from the cache, and answers Firecrawl v2 in its shape', async () => {
    const v2url = `${pageUrl()}-v2`;
    const body = {
      url: v2url,
      maxAge: 600_000,
      formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }],
    };
    const first = await t.api('POST', '/v2/scrape', body);
    expect(first.status).toBe(200);
    expect(first.json.data.changeTracking.changeStatus).toBe('new');
    const second = await t.api('POST', '/v2/scrape', body);
    expect(second.json.data.metadata.cacheState).toBe('miss');
    expect(second.json.data.changeTracking.changeStatus).toBe('same');
  });

  it('tracks the pages of a /v2 crawl', async () => {
    const crawlOnce = async () => {
      const started = await t.api('POST', '/v2/crawl', {
        url: `${pageUrl()}-crawl`,
        limit: 1,
        sitemap: 'skip',
        scrapeOptions: { formats: ['markdown', { type: 'changeTracking', tag: 'crawl' }] },
      });
      expect(started.status).toBe(200);
      for (const deadline = Date.now() + 60_000; ; ) {
        const body = (await t.api('GET', `/v2/crawl/${started.json.id}`)).json;
        if (body.status !== 'scraping' || Date.now() > deadline) return body;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    expect((await crawlOnce()).data[0].changeTracking).toMatchObject({
      changeStatus: 'new',
      tag: 'crawl',
    });
    expect((await crawlOnce()).data[0].changeTracking.changeStatus).toBe('same');
  });

  it('answers 400 naming the field for an unserved mode or a missing markdown format', async () => {
    const url = pageUrl();
    const json = await t.api('POST', '/api/v1/scrape/single', {
      url,
      formats: ['markdown', { type: 'changeTracking', modes: ['json'] }],
    });
    expect(json.status).toBe(400);
    expect(json.json.details[0].field).toBe('formats[1].modes[0]');
    const unknown = await t.api('POST', '/api/v1/scrape/single', {
      url,
      formats: ['markdown', { type: 'changeTracking', modes: ['word-diff'] }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.details[0].field).toMatch(/^formats/);
    const noMarkdown = await t.api('POST', '/api/v1/scrape/single', {
      url,
      formats: ['html', { type: 'changeTracking' }],
    });
    expect(noMarkdown.status).toBe(400);
    expect(noMarkdown.json.details[0].field).toBe('formats');
  });
});
