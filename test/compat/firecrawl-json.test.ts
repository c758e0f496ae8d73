import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiResponsesServer } from '../fixtures/openai-responses-server.ts';
import { startSearxngServer } from '../fixtures/searxng-server.ts';
import { type FixtureSite, startFixtureSite } from '../fixtures/site/server.ts';
import type { StandInServer } from '../fixtures/stand-in-server.ts';
import { extractModelAt } from '../helpers/llm-extract.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';

const SCHEMA = {
  type: 'object',
  properties: { topic: { type: 'string' }, sections: { type: 'array', items: { type: 'string' } } },
  required: ['topic', 'sections'],
  additionalProperties: false,
};
/** What the fixture model reads from the article's main content: its first heading, and every heading. */
const ARTICLE_OBJECT = {
  topic: 'How Tide Pools Keep Their Secrets',
  sections: ['How Tide Pools Keep Their Secrets', 'Zones of the shore', 'What lives where'],
};

let site: FixtureSite;
let model: StandInServer;
let searx: StandInServer;
let t: TestServer;
let fc: Firecrawl;

beforeAll(async () => {
  [site, model] = await Promise.all([startFixtureSite(), startOpenAiResponsesServer()]);
  searx = await startSearxngServer([`${site.origin}/article.html`]);
  t = await startTestServer({
    SEARXNG_URL: searx.origin,
    WEBDATA_FIRECRAWL_SEARCH_ENGINE: 'searxng',
    ...extractModelAt(model),
    WEBDATA_BROWSER_POOL_SIZE: '1',
  });
  fc = new Firecrawl({ apiKey: TEST_KEY, apiUrl: t.base });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([model?.close(), searx?.close(), site?.close()]);
});

async function ledgerOps(): Promise<string[]> {
  const user = (await t.server.keys.authenticate(TEST_KEY))!;
  return (await t.server.ledger.forUser(user.userId)).map((r) => r.operation).sort();
}

describe("Firecrawl's json format through the official SDK, as the native schema extraction", () => {
  it('scrapes with a json format object: the schema and prompt reach the model, the object comes back as json, charged as scrape + extract', async () => {
    const before = await ledgerOps();
    const seen = model.requests.length;
    const doc = await fc.scrape(`${site.origin}/article.html`, {
      formats: [
        'markdown',
        { type: 'json', schema: SCHEMA, prompt: 'What is this article about?' },
      ],
    });
    expect(doc.json).toEqual(ARTICLE_OBJECT);
    expect(doc.markdown).toContain('Twice a day the ocean pulls back');
    expect(doc.metadata).toMatchObject({ statusCode: 200, cost: 0.003 });
    const request = model.requests.slice(seen);
    expect(request).toHaveLength(1);
    expect(request[0]!.body.text.format.schema).toEqual(SCHEMA);
    expect(request[0]!.body.input).toMatch(/^Instruction: What is this article about\?\n/);
    expect((await ledgerOps()).length - before.length).toBe(2);
    expect(await ledgerOps()).toEqual(expect.arrayContaining(['extract', 'scrape']));
  });

  it('takes json alone, and the plain json format with jsonOptions as older clients send it', async () => {
    const alone = await fc.scrape(`${site.origin}/article.html`, {
      formats: [{ type: 'json', schema: SCHEMA }],
    });
    expect(alone.json).toEqual(ARTICLE_OBJECT);
    expect(alone.markdown).toBeUndefined();
    const res = await t.api('POST', '/v2/scrape', {
      url: `${site.origin}/article.html`,
      formats: ['json'],
      jsonOptions: { schema: SCHEMA },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.json).toEqual(ARTICLE_OBJECT);
  });

  it('extracts the pages of search results', async () => {
    const found = await fc.search('tide pools', {
      limit: 1,
      scrapeOptions: { formats: [{ type: 'json', schema: SCHEMA }] },
    });
    const hit = found.web?.[0] as { url: string; json?: unknown };
    expect(hit.url).toBe(`${site.origin}/article.html`);
    expect(hit.json).toEqual(ARTICLE_OBJECT);
  });

  it('extracts every page of a batch', async () => {
    const job = await fc.batchScrape(
      [`${site.origin}/article.html`, `${site.origin}/article.html?again=1`],
      { options: { formats: [{ type: 'json', schema: SCHEMA }] }, pollInterval: 0.2 },
    );
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(2);
    for (const doc of job.data) expect(doc.json).toEqual(ARTICLE_OBJECT);
  });

  it('refuses what it cannot fill, naming the field', async () => {
    const noSchema = (await fc
      .scrape(`${site.origin}/article.html`, { formats: [{ type: 'json', prompt: 'anything' }] })
      .catch((e: unknown) => e)) as SdkError;
    expect(noSchema).toBeInstanceOf(SdkError);
    expect(noSchema.status).toBe(400);
    expect(noSchema.message).toContain('formats[0].schema');
    const plain = await t.api('POST', '/v2/scrape', {
      url: `${site.origin}/article.html`,
      formats: ['markdown', 'json'],
    });
    expect(plain.status).toBe(400);
    expect(plain.json.details[0].field).toBe('jsonOptions.schema');
    const notObject = await t.api('POST', '/v2/scrape', {
      url: `${site.origin}/article.html`,
      formats: [{ type: 'json', schema: { type: 'string' } }],
    });
    expect(notObject.json.details[0].field).toBe('formats[0].schema');
    const crawl = await t.api('POST', '/v2/crawl', {
      url: `${site.origin}/article.html`,
      scrapeOptions: { formats: [{ type: 'json', schema: SCHEMA }] },
    });
    expect(crawl.status).toBe(400);
    expect(crawl.json.details[0].field).toBe('scrapeOptions.formats');
  });
});
