import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { call, textOf, useMcpClients } from '../helpers/mcp.ts';
import { TEST_KEY, useServer } from '../helpers/server.ts';

// The tool calls run the routes' operations in-process, not through HTTP: these pin that what an
// agent gets is what the route answers, body for body and error for error.
const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: { WEBDATA_MAX_INFLIGHT_PER_USER: '1' } });
const clients = useMcpClients(t);
const mcpClient = () => clients.http(TEST_KEY);
/** The same answer at another moment: only the times it was made (at any depth) differ. */
const timeless = (body: unknown) =>
  JSON.parse(JSON.stringify(body), (key, value) =>
    key === 'timestamp' || key === 'cachedAt' ? 'then' : value,
  );

describe('MCP tool calls of operation routes', () => {
  it('give as structuredContent exactly the body the route answers over HTTP', async () => {
    const client = await mcpClient();
    for (const [tool, path, args] of [
      [
        'scrape',
        '/api/v1/scrape/single',
        {
          url: `${site.origin}/article.html`,
          formats: ['markdown', 'links'],
          extractMetadata: true,
        },
      ],
      ['batch_scrape', '/api/v1/scrape/batch', { urls: [`${site.origin}/notes.txt`] }],
      ['map', '/api/v1/map', { url: `${site.origin}/article.html`, limit: 5 }],
    ] as const) {
      const http = await t.api('POST', path, args);
      expect(http.status).toBe(200);
      const mcp = await call(client, tool, args);
      expect(mcp.isError, `${tool}: ${textOf(mcp)}`).toBeFalsy();
      expect(timeless(mcp.structuredContent)).toEqual(timeless(http.json));
      expect(Object.keys(mcp.structuredContent!)).toEqual(Object.keys(http.json));
    }
  });

  it("answers a bad argument with the route's 400, field by field, as a tool error", async () => {
    const client = await mcpClient();
    for (const [tool, path, args] of [
      ['scrape', '/api/v1/scrape/single', { url: `${site.origin}/article.html`, type: 'pdf' }],
      ['scrape', '/api/v1/scrape/single', { url: `${site.origin}/a`, colour: 'red' }],
      ['scrape', '/api/v1/scrape/single', { url: 'article.html' }],
      ['batch_scrape', '/api/v1/scrape/batch', { urls: [{ url: 'ftp://x.test/' }] }],
      ['map', '/api/v1/map', { url: `${site.origin}/`, limit: 'many' }],
    ] as const) {
      const http = await t.api('POST', path, args);
      expect(http.status).toBe(400);
      const details = http.json.details as Array<{ field: string; message: string }>;
      expect(details.length).toBeGreaterThan(0);
      const mcp = await call(client, tool, args);
      expect(mcp.isError).toBe(true);
      expect(textOf(mcp)).toBe(
        [`HTTP 400: ${http.json.error}`, ...details.map((d) => `- ${d.field}: ${d.message}`)].join(
          '\n',
        ),
      );
    }
  });

  it('takes an in-flight place like the route: 429 while the key has none left', async () => {
    const client = await mcpClient();
    const holding = t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/slow?ms=1500` });
    await new Promise((r) => setTimeout(r, 300));
    const refused = await call(client, 'scrape', { url: `${site.origin}/notes.txt` });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^HTTP 429: more than 1 requests in flight/);
    expect((await holding).status).toBe(200);
    const served = await call(client, 'scrape', { url: `${site.origin}/notes.txt` });
    expect(served.isError).toBeFalsy();
  });
});
