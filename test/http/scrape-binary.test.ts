import { randomBytes, randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';
import { allPages, waitForJob } from '../jobs/helpers.ts';

/** Bodies the fixture site serves at /blob?id=N, each with its type (none when undefined). */
const blobs: Array<{ body: Buffer; type?: string }> = [];
const site = useFixture(() =>
  startFixtureSite({
    '/blob': (_req, res: ServerResponse, url) => {
      const { body, type } = blobs[Number(url.searchParams.get('id'))]!;
      res.writeHead(200, type === undefined ? {} : { 'content-type': type });
      res.end(body);
    },
  }),
);
const t = useServer();

/** A URL of the fixture site answering `body` as `type` (no Content-Type at all when undefined). */
function served(body: Buffer, type?: string): string {
  blobs.push({ body, type });
  return `${site.origin}/blob?id=${blobs.length - 1}`;
}

/** The types random downloads come under: the unknown type, a wrong text type, none. */
const TYPES = ['application/octet-stream', 'text/plain', undefined] as const;

/** The clear failure of a body judged binary, naming what it was served as. */
const BINARY_ERROR =
  /^cannot convert binary content \(served as (application\/octet-stream|text\/plain|no type)\) to markdown$/;

const scrape = (body: Record<string, unknown>, key?: string) =>
  t.api('POST', '/api/v1/scrape/single', body, key);

/**
 * What every reading of bytes as text shows, whichever charset: the ASCII controls (other than tab,
 * line feed, form feed, carriage return, escape) are controls in UTF-8 and windows-1252 alike.
 * Bytes with a byte-order mark are read by it instead, so they are left out of this check.
 */
function fewControls(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe))
    return true;
  const controls = bytes.filter(
    (b) => (b < 0x20 && ![9, 10, 12, 13, 27].includes(b)) || b === 0x7f,
  );
  return controls.length <= bytes.length / 100;
}

describe('a binary body is never a page', () => {
  it('fails 200 random blobs in a row clearly, each at cost 0, and charges nothing', async () => {
    for (let i = 0; i < 200; i++) {
      const type = TYPES[i % TYPES.length];
      const url = served(randomBytes(randomInt(64, 8192)), type);
      const { status, json } = await scrape({ url }, TEST_KEY_2);
      expect(status).toBe(200);
      expect(json, `blob ${i} served as ${type}`).toMatchObject({
        success: false,
        statusCode: 200,
        cost: 0,
      });
      expect(json.error).toMatch(BINARY_ERROR);
      expect(json.markdown).toBeUndefined();
    }
    const usage = await t.api('GET', '/api/v1/usage', undefined, TEST_KEY_2);
    expect(usage.json).toMatchObject({ success: true, totalCost: 0, operations: [] });
    expect(await t.ledger(TEST_KEY_2)).toEqual([]);
  });

  it('never answers random bytes as a page unless they read as text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.uint8Array({ maxLength: 24 }), fc.uint8Array({ maxLength: 3000 })),
        fc.constantFrom(...TYPES),
        async (bytes, type) => {
          const { json } = await scrape({ url: served(Buffer.from(bytes), type) });
          if (json.success) {
            expect(fewControls(bytes), `served as ${type}: ${json.markdown}`).toBe(true);
            expect(json.cost).toBe(0.002);
          } else {
            expect(json.cost).toBe(0);
            expect(json.error).toMatch(/^cannot convert|is a file download/);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('still reads mislabelled HTML, JSON and PDF', async () => {
    const article = await readFile(
      new URL('../fixtures/site/public/article.html', import.meta.url),
    );
    const pdf = await readFile(
      new URL('../fixtures/site/public/docs/harbour-report.pdf', import.meta.url),
    );
    const json = Buffer.from('{"name":"fixture","items":[1,2,3]}');
    for (const type of TYPES) {
      const page = await scrape({ url: served(article, type) });
      expect(page.json, `HTML served as ${type}`).toMatchObject({ success: true, cost: 0.002 });
      expect(page.json.markdown).toContain('Twice a day the ocean pulls back');
      const data = await scrape({ url: served(json, type) });
      expect(data.json.success, `JSON served as ${type}`).toBe(true);
      expect(JSON.parse(data.json.markdown)).toEqual({ name: 'fixture', items: [1, 2, 3] });
      const doc = await scrape({ url: served(pdf, type), pdfStrategy: 'local' });
      expect(doc.json, `PDF served as ${type}`).toMatchObject({ success: true, cost: 0.002 });
      expect(doc.json.markdown).toContain('Dredging of the eastern channel begins in March.');
    }
  });

  it('fails a binary body at cost 0 through every door: batch, async batch, /v2, MCP, crawl', async () => {
    // Served as text, which it is not: the type alone does not make it a page.
    const blob = served(randomBytes(2048), 'text/plain');
    const page = `${site.origin}/article.html`;
    const before = (await t.ledger(TEST_KEY)).length;

    const batch = await t.api('POST', '/api/v1/scrape/batch', { urls: [blob, page] });
    expect(batch.json.results[0]).toMatchObject({ url: blob, success: false, cost: 0 });
    expect(batch.json.results[0].error).toMatch(BINARY_ERROR);
    expect(batch.json.results[1]).toMatchObject({ success: true, cost: 0.002 });

    const started = await t.api('POST', '/api/v1/scrape/async/batch', { urls: [blob] });
    expect(started.status).toBe(202);
    await waitForJob(t, started.json.url);
    const { data } = await allPages(t, started.json.url, 10);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ success: false, cost: 0 });
    expect(data[0].error).toMatch(BINARY_ERROR);

    const v2 = await t.api('POST', '/v2/scrape', { url: blob });
    expect(v2.json).toMatchObject({ success: false, code: 'SCRAPE_FAILED', cost: 0 });
    expect(v2.json.error).toMatch(BINARY_ERROR);
    expect(v2.json.data.markdown).toBeUndefined();

    const mcp = new Client({ name: 'test', version: '1' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TEST_KEY}` } },
      }),
    );
    try {
      const tool = (await mcp.callTool({ name: 'scrape', arguments: { url: blob } })) as {
        structuredContent?: Record<string, unknown>;
      };
      expect(tool.structuredContent).toMatchObject({ success: false, cost: 0 });
      expect(tool.structuredContent?.error).toMatch(BINARY_ERROR);
    } finally {
      await mcp.close();
    }

    const crawl = await t.api('POST', '/api/v1/crawl', { url: blob, limit: 5, sitemap: 'skip' });
    expect(crawl.status).toBe(202);
    const job = await waitForJob(t, crawl.json.url);
    expect(job.status).toBe('completed');
    const pages = await allPages(t, crawl.json.url, 10);
    expect(pages.data).toHaveLength(1);
    expect(pages.data[0]).toMatchObject({ success: false, cost: 0 });
    expect(pages.data[0].error).toMatch(BINARY_ERROR);

    // The one page that was a page is the one charge.
    const charged = (await t.ledger(TEST_KEY)).slice(before);
    expect(charged.map((r) => [r.operation, r.units])).toEqual([['scrape', 1]]);
  });
});

describe('a navigation that becomes a download, on the browser rung', () => {
  const actions = [{ type: 'wait', milliseconds: 10 }];

  it('fails clearly at cost 0 when the file is not a PDF', async () => {
    const url = served(randomBytes(4096), 'application/octet-stream');
    const { status, json } = await scrape({ url, actions });
    expect(status).toBe(200);
    expect(json).toMatchObject({ success: false, cost: 0 });
    expect(json.error).toBe(
      `${url} is a file download ("blob"), not a page: only a PDF download is read`,
    );
    expect(json.markdown).toBeUndefined();
  });

  it('fails an image the browser shows as a document of its own, not as an empty page', async () => {
    const { json } = await scrape({ url: `${site.origin}/image.png`, actions });
    expect(json).toMatchObject({ success: false, cost: 0 });
    expect(json.error).toBe('cannot convert binary content (served as image/png) to markdown');
    expect(json.markdown).toBeUndefined();
  });

  it('reads the file as a PDF when it is one', async () => {
    const { json } = await scrape({
      url: `${site.origin}/docs/harbour-report.pdf`,
      actions,
      pdfStrategy: 'local',
    });
    expect(json).toMatchObject({ success: true, method: 'browser', cost: 0.002 });
    expect(json.markdown).toContain('Dredging of the eastern channel begins in March.');
  });
});
