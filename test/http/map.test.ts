import { describe, expect, it } from 'vitest';
import { SEARCH_SET, startMapSites } from '../fixtures/map-sites/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { startTestServer, TEST_KEY_2, useServer } from '../helpers/server.ts';

const sites = useFixture(startMapSites);
const t = useServer({
  settings: () => {
    // Every fixture host answers on loopback, the cloud metadata name included (the guard must refuse
    // it by name); one more name resolves to the link-local metadata address.
    const resolve = [
      ...sites.hosts.filter((h) => h !== 'metadata.sitemaps.test').map((h) => `${h}=127.0.0.1`),
      'metadata.sitemaps.test=169.254.169.254',
    ];
    return { WEBDATA_TEST_RESOLVE: resolve.join(','), WEBDATA_MAP_TIMEOUT_MS: '20000' };
  },
});

const map = (body: Record<string, unknown>) => t.api('POST', '/api/v1/map', body);
const paths = (links: string[], host: string) =>
  links
    .filter((l) => new URL(l).hostname === host)
    .map((l) => new URL(l).pathname + new URL(l).search);

describe('POST /v1/map', () => {
  it('follows robots.txt to an index of plain, gzip and text sitemaps, and refuses children on forbidden addresses', async () => {
    const started = Date.now();
    const { status, json } = await map({ url: sites.url('www.sitemaps.test') });
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.cost).toBe(0.002);
    expect(json.total).toBe(json.links.length);
    expect(new Date(json.timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const found = paths(json.links, 'www.sitemaps.test');
    expect(found[0]).toBe('/');
    expect(new Set(found)).toEqual(
      new Set([
        '/',
        '/about',
        '/pricing',
        '/posts/one',
        '/posts/two',
        '/guides/setup',
        '/guides/deploy',
      ]),
    );
    // Other subdomains, other sites and assets stay out by default.
    expect(json.links.every((l: string) => new URL(l).hostname === 'www.sitemaps.test')).toBe(true);
    expect(sites.hits).toEqual(
      expect.arrayContaining([
        'www.sitemaps.test/robots.txt',
        'www.sitemaps.test/sitemap-index.xml',
        'www.sitemaps.test/sitemaps/posts.xml.gz',
        'www.sitemaps.test/sitemaps/extra.txt',
      ]),
    );
    // Children on a metadata name (reachable here on loopback) and on link-local addresses were never fetched.
    expect(sites.hits.some((h) => h.startsWith('metadata.'))).toBe(false);
    expect(found).not.toContain('/secret-from-metadata');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('includes subdomains of the registrable domain only when asked', async () => {
    const { json } = await map({ url: sites.url('www.sitemaps.test'), includeSubdomains: true });
    expect(json.success).toBe(true);
    expect(json.links).toContain(sites.url('blog.sitemaps.test', '/hello'));
    expect(json.links).toContain(sites.url('docs.sitemaps.test', '/intro'));
    // Found by crawling the subdomain page the start page links to.
    expect(json.links).toContain(sites.url('docs.sitemaps.test', '/intro/next'));
    expect(json.links.some((l: string) => new URL(l).hostname === 'elsewhere.test')).toBe(false);
    expect(json.links.some((l: string) => new URL(l).hostname.startsWith('metadata'))).toBe(false);
  });

  it('maps a site with no sitemap through its links, a shallow crawl and its feeds, deduplicated', async () => {
    const { json } = await map({ url: sites.url('links.test') });
    expect(json.success).toBe(true);
    const found = paths(json.links, 'links.test');
    // Case of scheme and host, fragment, trailing slash, tracking and other query strings: one URL.
    expect(found.filter((p) => p.startsWith('/about'))).toEqual(['/about']);
    expect(new Set(found)).toEqual(
      new Set([
        '/',
        '/about',
        '/team',
        '/products',
        '/products/widgets',
        '/products/gadgets',
        '/products/widgets/blue',
        '/report.pdf',
        '/blog/first-post',
        '/blog/second-post',
        '/news/launch',
      ]),
    );
    expect(found[0]).toBe('/');
    // Two link hops are crawled; a third is not.
    expect(sites.hits).toContain('links.test/products/widgets');
    expect(sites.hits).not.toContain('links.test/products/widgets/blue');
    expect(json.links).toHaveLength(json.total);
  });

  it('keeps query strings apart, tracking parameters aside, when ignoreQueryParameters is false', async () => {
    const { json } = await map({ url: sites.url('links.test'), ignoreQueryParameters: false });
    const about = paths(json.links, 'links.test').filter((p) => p.startsWith('/about'));
    expect(about.sort()).toEqual(['/about', '/about?ref=footer']);
  });

  it('cuts at the limit, up to 5000, and refuses more', async () => {
    const { json } = await map({ url: sites.url('big.test'), limit: 5000 });
    expect(json.success).toBe(true);
    expect(json.total).toBe(5000);
    expect(new Set(json.links).size).toBe(5000);
    const small = await map({ url: sites.url('big.test') });
    expect(small.json.total).toBe(100);
    for (const limit of [5001, 0, 1.5]) {
      const bad = await map({ url: sites.url('big.test'), limit });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toMatch(/^limit/);
    }
  });

  it('ranks by the search keyword over URL words and sitemap titles; without one, home first then shallow', async () => {
    const pricing = await map({ url: sites.url('search.test'), search: 'pricing' });
    expect(paths(pricing.json.links, 'search.test')).toEqual([
      '/pricing',
      '/blog/pricing-changes-2024',
      '/careers',
    ]);
    const camel = await map({ url: sites.url('search.test'), search: 'install guide' });
    expect(paths(camel.json.links, 'search.test')[0]).toBe('/docs/installGuide');
    const auth = await map({ url: sites.url('search.test'), search: 'API auth', limit: 1 });
    expect(paths(auth.json.links, 'search.test')).toEqual(['/docs/api/authentication']);
    const plain = await map({ url: sites.url('search.test') });
    expect(paths(plain.json.links, 'search.test')).toEqual([
      '/',
      '/about',
      '/careers',
      '/pricing',
      '/blog/pricing-changes-2024',
      '/docs/getting-started',
      '/docs/installGuide',
      '/products/widget',
      '/docs/api/authentication',
    ]);
    expect(plain.json.total).toBe(SEARCH_SET.length);
  });

  it('reads what it can of malformed, deeply nested, recursive and oversized sitemaps, within bounds', async () => {
    const started = Date.now();
    const { json } = await map({ url: sites.url('bomb.test'), limit: 5000 });
    expect(json.success).toBe(true);
    const found = new Set(paths(json.links, 'bomb.test'));
    for (const p of ['/good-page', '/malformed-ok', '/before-deep', '/before-bomb'])
      expect(found).toContain(p);
    // The 80 MB gzip bomb stops at the 50 MB bound; the 200,000-deep nesting at the depth bound.
    expect(found).not.toContain('/after-bomb');
    expect(found).not.toContain('/after-deep');
    // Indexes nest three levels at most, and a self-listing index is read once.
    expect(sites.hits).toContain('bomb.test/nest/3.xml');
    expect(sites.hits).not.toContain('bomb.test/nest/4.xml');
    expect(sites.hits.filter((h) => h === 'bomb.test/index.xml')).toHaveLength(1);
    // Of an index of 2,000 children, only the first 50 are read.
    expect(sites.hits.filter((h) => h.startsWith('bomb.test/many/'))).toHaveLength(50);
    expect(found).toContain('/many/49');
    expect(found).not.toContain('/many/50');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('answers success false, cost 0, when the site is unreachable or offers nothing', async () => {
    const down = await map({ url: 'http://127.0.0.1:1/' });
    expect(down.status).toBe(200);
    expect(down.json).toMatchObject({ success: false, links: [], total: 0, cost: 0 });
    expect(down.json.error).toMatch(/could not reach/);
    const nothing = await map({ url: sites.url('elsewhere.test', '/gone') });
    expect(nothing.json).toMatchObject({ success: false, total: 0, cost: 0 });
    expect(nothing.json.error).toMatch(/404/);
  });

  it('answers with what it found when the deadline passes', async () => {
    const quick = await startTestServer({
      WEBDATA_TEST_RESOLVE: 'slow.test=127.0.0.1',
      WEBDATA_MAP_TIMEOUT_MS: '1000',
    });
    try {
      const started = Date.now();
      const { json } = await quick.api('POST', '/api/v1/map', { url: sites.url('slow.test') });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(json.success).toBe(true);
      expect(paths(json.links, 'slow.test')).toEqual([
        '/',
        '/first',
        '/second',
        '/streamed-one',
        '/streamed-two',
      ]);
      expect(sites.hits).toContain('slow.test/sitemap-hangs.xml');
    } finally {
      await quick.close();
    }
  });

  it('writes one ledger row per successful map and none for a failed one', async () => {
    const user = (await t.server.keys.authenticate(TEST_KEY_2))!.userId;
    const before = (await t.server.ledger.forUser(user)).length;
    const ok = await t.api('POST', '/api/v1/map', { url: sites.url('search.test') }, TEST_KEY_2);
    const failed = await t.api('POST', '/api/v1/map', { url: 'http://127.0.0.1:1/' }, TEST_KEY_2);
    expect([ok.json.cost, failed.json.cost]).toEqual([0.002, 0]);
    const rows = (await t.server.ledger.forUser(user)).slice(before);
    expect(rows.map((r) => [r.operation, r.units, r.costMicros])).toEqual([['map', 1, 2000]]);
  });

  it('refuses bad input by field', async () => {
    expect((await map({})).json.error).toMatch(/^url/);
    expect((await map({ url: 'ftp://x.test/' })).json.error).toMatch(/^url/);
    const withCredentials = await map({ url: 'http://user:pass@links.test/' });
    expect(withCredentials.status).toBe(400);
    expect(withCredentials.json.error).toMatch(/^url: .*credentials/);
    expect(
      (await map({ url: sites.url('links.test'), includeSubdomains: 'yes' })).json.error,
    ).toMatch(/^includeSubdomains/);
    expect((await map({ url: sites.url('links.test'), depth: 2 })).json.error).toMatch(/^depth/);
    expect(
      (await t.api('POST', '/api/v1/map', { url: sites.url('links.test') }, null)).status,
    ).toBe(401);
  });
});
