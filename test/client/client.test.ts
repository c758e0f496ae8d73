import { beforeAll, describe, expect, it } from 'vitest';
import { WebdataClient, WebdataError } from '../../packages/client/src/index.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, useServer } from '../helpers/server.ts';

const site = useFixture(() => startFixtureSite());
const t = useServer();
let client: WebdataClient;
beforeAll(() => {
  client = new WebdataClient({ baseUrl: t.base, apiKey: TEST_KEY });
});

describe('@webdata/client against the real server', () => {
  it('scrapes one page and a batch', async () => {
    const one = await client.scrape({ url: `${site.origin}/article.html`, extractMetadata: true });
    expect(one.success).toBe(true);
    expect(one.metadata?.title).toContain('Tide Pools');
    const batch = await client.scrapeBatch({
      urls: [`${site.origin}/notes.txt`, `${site.origin}/status/404`],
    });
    expect([batch.successful, batch.failed]).toEqual([1, 1]);
  });

  it('reads its own usage', async () => {
    await client.scrape({ url: `${site.origin}/article.html` });
    const today = new Date().toISOString().slice(0, 10);
    const usage = await client.usage({ from: today, to: today });
    expect(usage.operations.find((o) => o.operation === 'scrape')?.units).toBeGreaterThanOrEqual(1);
    expect(usage.days.map((d) => d.date)).toEqual([today]);
  });

  it('extracts with selectors and summarises extractively on a server without an LLM', async () => {
    const page = await client.scrape({
      url: `${site.origin}/article.html`,
      extract: { selectors: { title: 'h1', zones: { selector: 'article li', all: true } } },
      summary: { query: 'trampling' },
    });
    expect(page.json).toMatchObject({ title: 'How Tide Pools Keep Their Secrets' });
    expect((page.json as { zones: string[] }).zones).toHaveLength(4);
    expect(page.summarizer).toBe('extractive');
    expect(page.content).toBe('The pools recover slowly from trampling.');
    // Schema extraction needs an LLM, which this server does not have.
    const err = await client
      .startExtract({ urls: [`${site.origin}/article.html`], schema: { type: 'object' } })
      .catch((e: unknown) => e);
    expect((err as WebdataError).details?.[0]?.field).toBe('schema');
  });

  it('asks for several formats and narrows with selectors', async () => {
    const page = await client.scrape({
      url: `${site.origin}/article.html`,
      formats: ['markdown', 'links'],
      excludeTags: ['table'],
    });
    expect(page.links).toContain(`${site.origin}/kelp`);
    expect(page.markdown).toContain('Twice a day');
    expect(page.markdown).not.toMatch(/\| Zone\s*\|/);
  });

  it('throws WebdataError with status and field details', async () => {
    const err = await client.scrape({ url: 'ftp://example.com/' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebdataError);
    expect((err as WebdataError).status).toBe(400);
    expect((err as WebdataError).details?.[0]?.field).toBe('url');
    const unauthorised = new WebdataClient({
      baseUrl: t.base,
      apiKey: 'wd_wrong_wrong_wrong_wrong',
    });
    await expect(unauthorised.scrape({ url: `${site.origin}/notes.txt` })).rejects.toMatchObject({
      status: 401,
    });
  });
});
