import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBingSerpServer } from '../fixtures/bing-serp-server.ts';
import { BRAVE_TEST_KEY, startBraveSearchServer } from '../fixtures/brave-search-server.ts';
import type { EngineServer } from '../fixtures/engine-server.ts';
import {
  GOOGLE_CSE_TEST_CX,
  GOOGLE_CSE_TEST_KEY,
  startGoogleCseServer,
} from '../fixtures/google-cse-server.ts';
import { startGoogleSerpServer } from '../fixtures/google-serp-server.ts';
import {
  OPENAI_TEST_KEY,
  startOpenAiResponsesServer,
} from '../fixtures/openai-responses-server.ts';
import {
  PERPLEXITY_TEST_KEY,
  startPerplexitySearchServer,
} from '../fixtures/perplexity-search-server.ts';
import { startSearxngServer } from '../fixtures/searxng-server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { startTestServer, type TestServer, useServer } from '../helpers/server.ts';

const google = useFixture(startGoogleSerpServer);
const bing = useFixture(startBingSerpServer);
const openai = useFixture(startOpenAiResponsesServer);
const perplexity = useFixture(startPerplexitySearchServer);
const searxng = useFixture(() => startSearxngServer());
const brave = useFixture(startBraveSearchServer);
const t = useServer({
  settings: () => ({
    WEBDATA_GOOGLE_URL: google.origin,
    WEBDATA_BING_URL: bing.origin,
    OPENAI_BASE_URL: `${openai.origin}/v1`,
    OPENAI_API_KEY: OPENAI_TEST_KEY,
    PERPLEXITY_BASE_URL: perplexity.origin,
    PERPLEXITY_API_KEY: PERPLEXITY_TEST_KEY,
    SEARXNG_URL: searxng.origin,
    BRAVE_BASE_URL: brave.origin,
    BRAVE_API_KEY: BRAVE_TEST_KEY,
    WEBDATA_SEARCH_TIMEOUT_MS: '3000',
  }),
});

const searchLedger = async () => (await t.ledger()).filter((r) => r.operation === 'search');

/**
 * A first results page with nothing parsed on it is either the engine finding nothing (a success,
 * charged: the price is per query) or a page we could not read (a failure at no cost).
 */
async function expectEmptyAndUnreadable(engine: 'google' | 'bing') {
  const before = (await searchLedger()).length;
  const res = await t.api('POST', '/api/v1/search', {
    engine,
    queries: ['zzqx noresults', 'react relayout'],
  });
  expect(res.status).toBe(200);
  const [empty, unreadable] = res.json.results;
  expect(empty).toMatchObject({ query: 'zzqx noresults', success: true, results: [], cost: 0.008 });
  expect(unreadable).toMatchObject({
    query: 'react relayout',
    success: false,
    results: [],
    cost: 0,
    error: `${engine} returned a results page we could not read (its layout may have changed)`,
  });
  expect(res.json).toMatchObject({ successful: 1, failed: 1, cost: 0.008 });
  const rows = (await searchLedger()).slice(before);
  expect(rows.map((r) => r.costMicros)).toEqual([8000]);
}

/** Requests an engine fixture received during `fn`. */
async function seenBy<T>(
  engine: EngineServer,
  fn: () => Promise<T>,
): Promise<{ out: T; requests: EngineServer['requests'] }> {
  const before = engine.requests.length;
  const out = await fn();
  return { out, requests: engine.requests.slice(before) };
}

describe('POST /api/v1/search on google (results pages)', () => {
  it('pages through Google until the limit, decoding results from the real pages, and charges 0.008', async () => {
    const { out: res, requests } = await seenBy(google, () =>
      t.api('POST', '/api/v1/search', { queries: ['react github'] }),
    );
    expect(res.status).toBe(200);
    expect(requests.map((r) => [r.query.get('q'), r.query.get('start')])).toEqual([
      ['react github', null],
      ['react github', '10'],
    ]);
    const q = res.json.results[0];
    expect(q).toMatchObject({ query: 'react github', success: true, cost: 0.008 });
    expect(q.results).toHaveLength(10);
    expect(q.results[0]).toEqual({
      url: 'https://github.com/facebook/react',
      title: 'facebook/react: The library for web and native user interfaces.',
      description:
        'The main purpose of this repository is to continue evolving React core, making it faster and easier to use. Development of React happens in the open on GitHub, ...',
    });
    // The first page has 8 organic results; the rest come from the second page.
    expect(q.results[8].url).toBe('https://www.synthesia.io/post/ai-tools');
    expect(q.results[9].url).toBe('https://aitoolsdirectory.com/');
    expect(q.loadTimeMs).toBeGreaterThanOrEqual(0);
    expect(res.json).toMatchObject({ total: 1, successful: 1, failed: 0, cost: 0.008 });
    expect(res.json.totalTimeMs).toBeGreaterThanOrEqual(q.loadTimeMs);
    expect(new Date(res.json.timestamp).getTime()).not.toBeNaN();
  });

  it('asks for one page for a small limit and stops when Google runs out for a large one', async () => {
    const small = await seenBy(google, () =>
      t.api('POST', '/api/v1/search', { queries: ['react github'], limit: 5 }),
    );
    expect(small.requests).toHaveLength(1);
    expect(small.out.json.results[0].results).toHaveLength(5);
    expect(small.out.json.cost).toBe(0.008);

    const large = await seenBy(google, () =>
      t.api('POST', '/api/v1/search', { queries: ['react github'], limit: 25 }),
    );
    expect(large.requests.map((r) => r.query.get('start'))).toEqual([null, '10', '20']);
    const urls: string[] = large.out.json.results[0].results.map((r: { url: string }) => r.url);
    expect(urls).toHaveLength(18);
    expect(new Set(urls).size).toBe(18);
    // Text fragments (#:~:text=) are dropped so the same page is not listed twice.
    expect(urls).toContain('https://webcatalog.io/pt/apps/future-tools');
    // 0.007 + 3 pages of 10 asked for.
    expect(large.out.json.results[0].cost).toBe(0.01);
  });

  it('passes the domains as site: operators and the location as gl, then filters the results itself', async () => {
    const { out: res, requests } = await seenBy(google, () =>
      t.api('POST', '/api/v1/search', {
        queries: ['react github'],
        includeDomains: ['https://GitHub.com/'],
        excludeDomains: ['reddit.com'],
        location: 'be',
      }),
    );
    expect(res.status).toBe(200);
    expect(requests[0]!.query.get('q')).toBe('react github site:github.com -site:reddit.com');
    expect(requests[0]!.query.get('gl')).toBe('be');
    expect(res.json.results[0].results.map((r: { url: string }) => r.url)).toEqual([
      'https://github.com/facebook/react',
      'https://github.com/topics/react',
      'https://github.com/reactjs',
      'https://github.com/reactjs/react.dev',
      'https://github.com/facebook/react-native',
    ]);
  });

  it('fails a query whose engine does not answer within the search deadline, and charges nothing for it', async () => {
    const res = await t.api('POST', '/api/v1/search', { queries: ['a slow one', 'react github'] });
    expect(res.json.results[0]).toMatchObject({
      success: false,
      cost: 0,
      error: 'google did not answer within 3000 ms',
    });
    expect(res.json.results[1]).toMatchObject({ success: true, cost: 0.008 });
    expect(res.json.cost).toBe(0.008);
  });
});

describe('POST /api/v1/search on a first results page with no result parsed', () => {
  it('google: charges a query Google found nothing for, and fails one whose page it could not read at no cost', async () => {
    await expectEmptyAndUnreadable('google');
  });

  it('bing: the same for Bing', async () => {
    await expectEmptyAndUnreadable('bing');
  });
});

describe('POST /api/v1/search on bing', () => {
  it('pages with first=, decodes ck/a links, drops duplicates across pages and passes the country as cc', async () => {
    const { out: res, requests } = await seenBy(bing, () =>
      t.api('POST', '/api/v1/search', {
        engine: 'bing',
        queries: ['searchts'],
        limit: 15,
        location: 'us',
      }),
    );
    expect(requests.map((r) => [r.query.get('first'), r.query.get('cc')])).toEqual([
      [null, 'US'],
      ['11', 'US'],
    ]);
    const results = res.json.results[0].results;
    expect(results).toHaveLength(15);
    expect(results[0]).toEqual({
      url: 'https://pypi.org/project/searchts/',
      title: 'searchts · PyPI',
      description:
        'Jun 18, 2026 · searchts 0.11.1 The missing layer between AI and the web. Open-source escalating unlocker (browser-fingerprinted …',
    });
    // Page 2 opens with https://www.bing.com/ again, which page 1 already gave.
    expect(results.filter((r: { url: string }) => r.url === 'https://www.bing.com/')).toHaveLength(
      1,
    );
    expect(results[10].url).toBe('https://www.malavida.com/es/soft/bing/');
    expect(res.json.results[0].cost).toBe(0.009);
  });
});

describe('POST /api/v1/search on chatgpt (OpenAI Responses API)', () => {
  it('asks the web_search tool with the domain filter and location, and returns the cited sources', async () => {
    const { out: res, requests } = await seenBy(openai, () =>
      t.api('POST', '/api/v1/search', {
        engine: 'chatgpt',
        queries: ['what is react'],
        includeDomains: ['react.dev', 'github.com', 'developer.mozilla.org'],
        location: 'gb',
      }),
    );
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
    const { out: res, requests } = await seenBy(perplexity, () =>
      t.api('POST', '/api/v1/search', {
        engine: 'perplexity',
        queries: ['react'],
        limit: 7,
        location: 'DE',
        includeDomains: ['github.com', 'react.dev'],
        excludeDomains: ['stackoverflow.com'],
      }),
    );
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
    const { out: res, requests } = await seenBy(searxng, () =>
      t.api('POST', '/api/v1/search', {
        engine: 'searxng',
        queries: ['react'],
        limit: 15,
        excludeDomains: ['en.wikipedia.org'],
      }),
    );
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
    const { out: res, requests } = await seenBy(brave, () =>
      t.api('POST', '/api/v1/search', {
        engine: 'brave',
        queries: ['react'],
        limit: 25,
        location: 'fr',
      }),
    );
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
  let cse: EngineServer;
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
