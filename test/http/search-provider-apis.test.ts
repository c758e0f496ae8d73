import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAVE_TEST_KEY } from '../fixtures/brave-search-server.ts';
import {
  GOOGLE_CSE_TEST_CX,
  GOOGLE_CSE_TEST_KEY,
  startGoogleCseServer,
} from '../fixtures/google-cse-server.ts';
import { OPENAI_TEST_KEY } from '../fixtures/openai-responses-server.ts';
import { PERPLEXITY_TEST_KEY } from '../fixtures/perplexity-search-server.ts';
import type { StandInServer } from '../fixtures/stand-in-server.ts';
import { useSearchProviders } from '../helpers/search-providers.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const { openai, perplexity, searxng, brave, t, searchSeenBy } = useSearchProviders();

describe('POST /api/v1/search on chatgpt (OpenAI Responses API)', () => {
  it('asks the web_search tool with the domain filter and location, and returns the cited sources', async () => {
    const { out: res, requests } = await searchSeenBy(openai, {
      engine: 'chatgpt',
      queries: ['what is react'],
      includeDomains: ['react.dev', 'github.com', 'developer.mozilla.org'],
      location: 'gb',
    });
    expect(res.status).toBe(200);
    const body = requests[0]!.body;
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${OPENAI_TEST_KEY}`);
    expect(body.model).toBe('gpt-5-mini');
    expect(body.input).toContain('what is react');
    expect(body.tools).toEqual([
      {
        type: 'web_search',
        filters: { allowed_domains: ['react.dev', 'github.com', 'developer.mozilla.org'] },
        user_location: { type: 'approximate', country: 'GB' },
      },
    ]);
    expect(body.include).toEqual(['web_search_call.action.sources']);
    const q = res.json.results[0];
    expect(q).toMatchObject({ success: true, cost: 0.008 });
    // Wikipedia was cited but is outside includeDomains; the repeated GitHub citation appears once.
    expect(q.results).toEqual([
      {
        url: 'https://react.dev/',
        title: 'React',
        description: 'React is a JavaScript library for building user interfaces.',
      },
      {
        url: 'https://github.com/facebook/react',
        title: 'GitHub - facebook/react: The library for web and native user interfaces.',
        description: 'Its source code is developed in the open on GitHub.',
      },
      {
        url: 'https://developer.mozilla.org/en-US/docs/Learn/Tools_and_testing/Client-side_JavaScript_frameworks/React_getting_started',
        title: '',
        description: '',
      },
    ]);
  });

  it('applies excludeDomains to what the model cited', async () => {
    const res = await t.api('POST', '/api/v1/search', {
      engine: 'chatgpt',
      queries: ['what is react'],
      excludeDomains: ['github.com'],
    });
    const urls = res.json.results[0].results.map((r: { url: string }) => r.url);
    expect(urls).toContain('https://en.wikipedia.org/wiki/React_(software)');
    expect(urls.some((u: string) => u.includes('github.com'))).toBe(false);
  });
});

describe('POST /api/v1/search on perplexity, searxng and brave', () => {
  it('perplexity: max_results, country and search_domain_filter (- excludes), then filters the answer', async () => {
    const { out: res, requests } = await searchSeenBy(perplexity, {
      engine: 'perplexity',
      queries: ['react'],
      limit: 7,
      location: 'DE',
      includeDomains: ['github.com', 'react.dev'],
      excludeDomains: ['stackoverflow.com'],
    });
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${PERPLEXITY_TEST_KEY}`);
    expect(requests[0]!.body).toEqual({
      query: 'react',
      max_results: 7,
      country: 'DE',
      search_domain_filter: ['github.com', 'react.dev', '-stackoverflow.com'],
    });
    // The fixture ignores the filter; ours still holds.
    expect(res.json.results[0].results).toEqual([
      {
        url: 'https://github.com/result-0',
        title: 'Result 0 on github.com',
        description: 'What result 0 says about the query.',
      },
      {
        url: 'https://react.dev/result-2',
        title: 'Result 2 on react.dev',
        description: 'What result 2 says about the query.',
      },
      {
        url: 'https://github.com/result-5',
        title: 'Result 5 on github.com',
        description: 'What result 5 says about the query.',
      },
    ]);
  });

  it('searxng: format=json, pageno paging and site: operators', async () => {
    const { out: res, requests } = await searchSeenBy(searxng, {
      engine: 'searxng',
      queries: ['react'],
      limit: 15,
      excludeDomains: ['en.wikipedia.org'],
    });
    expect(
      requests.map((r) => [r.query.get('q'), r.query.get('format'), r.query.get('pageno')]),
    ).toEqual([
      ['react -site:en.wikipedia.org', 'json', '1'],
      ['react -site:en.wikipedia.org', 'json', '2'],
    ]);
    const results = res.json.results[0].results;
    expect(results).toHaveLength(15);
    expect(results.some((r: { url: string }) => r.url.includes('wikipedia'))).toBe(false);
    expect(res.json.results[0].cost).toBe(0.009);
  });

  it('brave: token header, count/offset paging, country, plain-text snippets', async () => {
    const { out: res, requests } = await searchSeenBy(brave, {
      engine: 'brave',
      queries: ['react'],
      limit: 25,
      location: 'fr',
    });
    expect(
      requests.map((r) => [
        r.headers['x-subscription-token'],
        r.query.get('count'),
        r.query.get('offset'),
        r.query.get('country'),
      ]),
    ).toEqual([
      [BRAVE_TEST_KEY, '20', '0', 'FR'],
      [BRAVE_TEST_KEY, '20', '1', 'FR'],
    ]);
    const results = res.json.results[0].results;
    expect(results).toHaveLength(25);
    expect(results[0]).toEqual({
      url: 'https://github.com/result-0',
      title: 'Result 0 on github.com',
      description: 'What result 0 says about the query & more.',
    });
    expect(res.json.results[0].cost).toBe(0.01);
  });

  it('brave: a query the API does not answer in time fails alone', async () => {
    const res = await t.api('POST', '/api/v1/search', {
      engine: 'brave',
      queries: ['react', 'slow react'],
    });
    expect(res.json.results[0]).toMatchObject({ success: true, cost: 0.008 });
    expect(res.json.results[0].results).toHaveLength(10);
    expect(res.json.results[1]).toMatchObject({
      success: false,
      cost: 0,
      error: 'brave did not answer within 3000 ms',
    });
    expect(res.json).toMatchObject({ successful: 1, failed: 1, cost: 0.008 });
  });
});

describe('POST /api/v1/search on google through the Custom Search JSON API', () => {
  let cse: StandInServer;
  let withCse: TestServer;
  beforeAll(async () => {
    cse = await startGoogleCseServer();
    withCse = await startTestServer({
      GOOGLE_CSE_KEY: GOOGLE_CSE_TEST_KEY,
      GOOGLE_CSE_CX: GOOGLE_CSE_TEST_CX,
      WEBDATA_GOOGLE_CSE_URL: `${cse.origin}/customsearch/v1`,
    });
  });
  afterAll(async () => {
    await withCse?.close();
    await cse?.close();
  });

  it('uses the API instead of the results page when both settings are present, 10 per call with start=', async () => {
    const res = await withCse.api('POST', '/api/v1/search', {
      queries: ['react', 'quota test'],
      limit: 20,
      location: 'NL',
      includeDomains: ['github.com', 'react.dev'],
    });
    const calls = cse.requests.filter((r) => r.query.get('q')?.startsWith('react'));
    expect(
      calls.map((r) => [
        r.query.get('key'),
        r.query.get('cx'),
        r.query.get('q'),
        r.query.get('num'),
        r.query.get('start'),
        r.query.get('gl'),
      ]),
    ).toEqual([
      [
        GOOGLE_CSE_TEST_KEY,
        GOOGLE_CSE_TEST_CX,
        'react site:github.com OR site:react.dev',
        '10',
        '1',
        'nl',
      ],
      [
        GOOGLE_CSE_TEST_KEY,
        GOOGLE_CSE_TEST_CX,
        'react site:github.com OR site:react.dev',
        '10',
        '11',
        'nl',
      ],
    ]);
    const [ok, quota] = res.json.results;
    // The API ran out after 15 results; 6 of them are on the two domains.
    expect(ok.results.map((r: { url: string }) => r.url)).toEqual([
      'https://github.com/result-0',
      'https://react.dev/result-2',
      'https://github.com/result-5',
      'https://react.dev/result-7',
      'https://github.com/result-10',
      'https://react.dev/result-12',
    ]);
    expect(ok).toMatchObject({ success: true, cost: 0.009 });
    expect(quota).toMatchObject({ success: false, cost: 0 });
    expect(quota.error).toMatch(
      /^google refused the query: rate limited \(HTTP 429\): Quota exceeded/,
    );
  });
});
