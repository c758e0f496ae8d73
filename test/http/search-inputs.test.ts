import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSearchProviders } from '../helpers/search-providers.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const { openai, t } = useSearchProviders();

describe('POST /api/v1/search with engines left unconfigured', () => {
  let bare: TestServer;
  beforeAll(async () => {
    bare = await startTestServer();
  });
  afterAll(async () => {
    await bare?.close();
  });

  it.each([
    ['chatgpt', 'OPENAI_API_KEY'],
    ['perplexity', 'PERPLEXITY_API_KEY'],
    ['searxng', 'SEARXNG_URL'],
    ['brave', 'BRAVE_API_KEY'],
  ])('%s fails each query naming %s, at no cost', async (engine, setting) => {
    const res = await bare.api('POST', '/api/v1/search', { engine, queries: ['one', 'two'] });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ total: 2, successful: 0, failed: 2, cost: 0 });
    for (const q of res.json.results) {
      expect(q).toMatchObject({ success: false, cost: 0, results: [] });
      expect(q.error).toBe(`the ${engine} engine is not configured: set ${setting}`);
    }
  });
});

describe('POST /api/v1/search input checks', () => {
  it.each([
    [{ queries: [] }, 'queries'],
    [{ queries: ['a', 'b', 'c', 'd'] }, 'queries'],
    [{}, 'queries'],
    [{ queries: ['   '] }, 'queries[0]'],
    [{ queries: ['a'], limit: 0 }, 'limit'],
    [{ queries: ['a'], limit: 51 }, 'limit'],
    [{ queries: ['a'], limit: 2.5 }, 'limit'],
    [{ queries: ['a'], engine: 'yahoo' }, 'engine'],
    [{ queries: ['a'], location: 'XX' }, 'location'],
    [{ queries: ['a'], location: 'usa' }, 'location'],
    [{ queries: ['a'], location: 'uk' }, 'location'],
    [{ queries: ['a'], includeDomains: ['not a domain'] }, 'includeDomains[0]'],
    [{ queries: ['a'], excludeDomains: ['ok.com', 'user@host'] }, 'excludeDomains[1]'],
    [{ queries: ['a'], country: 'US' }, 'country'],
  ])('400 for %j naming %s', async (body, field) => {
    const res = await t.api('POST', '/api/v1/search', body);
    expect(res.status).toBe(400);
    expect(res.json.success).toBe(false);
    expect(res.json.details[0].field).toBe(field);
    expect(res.json.error.startsWith(`${field}:`)).toBe(true);
  });

  it('401 without a key', async () => {
    const res = await t.api('POST', '/api/v1/search', { queries: ['a'] }, null);
    expect(res.status).toBe(401);
  });
});

describe('an engine that refuses the configured key', () => {
  it('fails the query without echoing what the provider quoted of the key', async () => {
    const wrongKey = 'sk-wrong-0123456789-secret-tail';
    const server = await startTestServer({
      OPENAI_BASE_URL: `${openai.origin}/v1`,
      OPENAI_API_KEY: wrongKey,
    });
    try {
      const res = await server.api('POST', '/api/v1/search', {
        engine: 'chatgpt',
        queries: ['react'],
      });
      const [q] = res.json.results;
      expect(q).toMatchObject({ success: false, cost: 0 });
      expect(q.error).toMatch(/API key was rejected \(HTTP 401\)/);
      expect(q.error).not.toMatch(/sk-wro|tail/);
    } finally {
      await server.close();
    }
  });
});
