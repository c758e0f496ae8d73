import { describe, expect, it } from 'vitest';

import { useSearchProviders } from '../helpers/search-providers.ts';

const { google, bing, t, searchSeenBy, expectEmptyAndUnreadable } = useSearchProviders();

describe('POST /api/v1/search on google (results pages)', () => {
  it('pages through Google until the limit, decoding results from the real pages, and charges 0.008', async () => {
    const { out: res, requests } = await searchSeenBy(google, { queries: ['react github'] });
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
    const small = await searchSeenBy(google, { queries: ['react github'], limit: 5 });
    expect(small.requests).toHaveLength(1);
    expect(small.out.json.results[0].results).toHaveLength(5);
    expect(small.out.json.cost).toBe(0.008);

    const large = await searchSeenBy(google, { queries: ['react github'], limit: 25 });
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
    const { out: res, requests } = await searchSeenBy(google, {
      queries: ['react github'],
      includeDomains: ['https://GitHub.com/'],
      excludeDomains: ['reddit.com'],
      location: 'be',
    });
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
    const { out: res, requests } = await searchSeenBy(bing, {
      engine: 'bing',
      queries: ['searchts'],
      limit: 15,
      location: 'us',
    });
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
