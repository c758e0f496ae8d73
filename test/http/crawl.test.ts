import { describe, expect, it } from 'vitest';
import { type CrawlSite, linksPage, pagePath, startCrawlSite } from '../fixtures/crawl-site.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY_2, toLoopback, useServer } from '../helpers/server.ts';
import { allPages, expectCompleted, waitForJob } from '../jobs/helpers.ts';

const xml = (locs: string[]) => () => ({
  type: 'application/xml',
  body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`,
});
const text = (body: string) => () => ({ type: 'text/plain', body });

// Typed here: its own pages name it.
const site: CrawlSite = useFixture(() =>
  startCrawlSite({
    generated: [
      { host: 'tree.test', pages: 40, fanout: 3, sitemap: false },
      { host: 'big.test', pages: 400, fanout: 10, sitemap: false },
      { host: 'slow.test', pages: 400, fanout: 5, sitemap: false, pageDelayMs: 300 },
      { host: 'listed.test', pages: 30, fanout: 2 },
    ],
    pages: {
      'paths.test': {
        '/': linksPage('Home', ['/docs/a', '/docs/b', '/blog/x', '/docs/private/y']),
        '/docs': linksPage('Docs', ['/docs/a', '/docs/b', '/docsx', '/blog/x', '/']),
        '/docsx': linksPage('Docsx', []),
        '/docs/a': linksPage('A', ['/docs/c', '/blog/z']),
        '/docs/b': linksPage('B', []),
        '/docs/c': linksPage('C', []),
        '/docs/private/y': linksPage('Y', []),
        '/blog/x': linksPage('X', []),
      },
      'www.sub.test': {
        '/': linksPage('Home', () => ['/about', site.url('blog.sub.test'), site.url('other.test')]),
        '/about': linksPage('About', []),
      },
      'blog.sub.test': {
        '/': linksPage('Blog', ['/post']),
        '/post': linksPage('Post', []),
      },
      'other.test': { '/': linksPage('Other', []) },
      'robots.test': {
        '/robots.txt': text(
          'User-agent: *\nDisallow: /private\nAllow: /private/open\nCrawl-delay: 1\n',
        ),
        '/': linksPage('Home', ['/a', '/private/secret', '/private/open', '/b']),
        '/a': linksPage('A', []),
        '/b': linksPage('B', []),
        '/private/secret': linksPage('Secret', []),
        '/private/open': linksPage('Open', []),
      },
      'agent.test': {
        // A group naming our agent replaces the `*` group for us.
        '/robots.txt': text('User-agent: webdata\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n'),
        '/': linksPage('Home', ['/a', '/b']),
        '/a': linksPage('A', []),
        '/b': linksPage('B', []),
      },
      'maps.test': {
        '/': linksPage('Home', ['/a']),
        '/a': linksPage('A', ['/linked-only']),
        '/linked-only': linksPage('Linked', []),
        '/orphan': linksPage('Orphan', []),
        '/sitemap.xml': () => xml(['/a', '/orphan'].map((p) => site.url('maps.test', p)))(),
      },
    },
  }),
);
const t = useServer({
  settings: () => ({ WEBDATA_TEST_RESOLVE: toLoopback(site.hosts), WEBDATA_JOB_CONCURRENCY: '8' }),
});

const crawl = async (body: Record<string, unknown>, key?: string) => {
  const res = await t.api('POST', '/api/v1/crawl', body, key);
  expect(res.status, JSON.stringify(res.json)).toBe(202);
  return res.json as { id: string; url: string };
};
const finished = async (url: string) => {
  const job = await waitForJob(t, url, { timeoutMs: 60_000 });
  const { data } = await allPages(t, url, 100);
  return { job, data };
};
const pathsOf = (data: any[]) => data.map((d) => new URL(d.url).pathname);
const pageHits = (host: string) =>
  site.hits.filter((h) => h.path.startsWith(`${host}/`) && !/robots\.txt|sitemap/.test(h.path));
/** Depth of page n in a generated tree. */
const treeDepth = (n: number, fanout: number): number =>
  n === 0 ? 0 : 1 + treeDepth(Math.floor((n - 1) / fanout), fanout);

describe('POST /v1/crawl', () => {
  it('follows links to maxDepth in discovery order, each page once however it is spelled or however often it is linked', async () => {
    const created = await crawl({ url: site.url('tree.test'), maxDepth: 2, sitemap: 'skip' });
    expect(created.url).toBe(`/api/v1/scrape/async/job/${created.id}`);
    const { job, data } = await finished(created.url);
    // Pages 0..12 are within two hops of the home page in a tree of fanout 3.
    const expected = Array.from({ length: 13 }, (_, n) => pagePath(n));
    expectCompleted(job, 'crawl', 13, 0.026);
    expect(new Set(pathsOf(data))).toEqual(new Set(expected));
    expect(data[0]).toMatchObject({
      url: site.url('tree.test'),
      depth: 0,
      foundOn: null,
      success: true,
    });
    expect(data[0].markdown).toContain('The quick brown fox');
    for (const d of data) {
      const n = d.url.endsWith('/') ? 0 : Number(new URL(d.url).pathname.split('/').pop());
      expect(d.depth).toBe(treeDepth(n, 3));
      if (d.depth > 0)
        expect(treeDepth(Number(new URL(d.foundOn).pathname.split('/').pop() || 0), 3)).toBe(
          d.depth - 1,
        );
    }
    // Discovery order: no page is listed before a page of smaller depth was found... and the start is first.
    expect(data.map((d) => d.depth)).toEqual([...data.map((d) => d.depth)].sort((a, b) => a - b));
    // Cycles (Home, Up) and the fragment, tracking-parameter and trailing-slash spellings did not refetch anything.
    for (const p of expected) expect(site.count(`tree.test${p}`)).toBe(1);
    expect(pageHits('tree.test').length).toBe(13);
  });

  it('stops at exactly the page limit, with politeness bounding the requests in flight to the host', async () => {
    const { url } = await crawl({ url: site.url('big.test'), limit: 25, sitemap: 'skip' });
    const { job, data } = await finished(url);
    expect(job).toMatchObject({ status: 'completed', total: 25, completed: 25, cost: 0.05 });
    expect(data.length).toBe(25);
    expect(new Set(pathsOf(data)).size).toBe(25);
    expect(pageHits('big.test').length).toBe(25);
    // WEBDATA_CRAWL_HOST_CONCURRENCY defaults to 4, below the 8 items the worker runs at once.
    expect(site.peakInflight.get('big.test')).toBeLessThanOrEqual(4);
  });

  it('keeps to includePaths and leaves out excludePaths (the start URL is always fetched)', async () => {
    const { url } = await crawl({
      url: site.url('paths.test'),
      includePaths: ['^/docs/'],
      excludePaths: ['/private'],
    });
    const { data } = await finished(url);
    expect(new Set(pathsOf(data))).toEqual(new Set(['/', '/docs/a', '/docs/b', '/docs/c']));
    expect(site.count('paths.test/blog/x')).toBe(0);
    expect(site.count('paths.test/docs/private/y')).toBe(0);
  });

  it('stayUnderStartPath follows only the start path and the paths below it, by whole segments', async () => {
    const { data } = await finished(
      (await crawl({ url: site.url('paths.test', '/docs'), stayUnderStartPath: true })).url,
    );
    expect(new Set(pathsOf(data))).toEqual(new Set(['/docs', '/docs/a', '/docs/b', '/docs/c']));
    expect(site.count('paths.test/docsx')).toBe(0);
    const whole = await finished(
      (await crawl({ url: site.url('paths.test', '/docs'), maxDepth: 1 })).url,
    );
    expect(new Set(pathsOf(whole.data))).toEqual(
      new Set(['/docs', '/docs/a', '/docs/b', '/docsx', '/blog/x', '/']),
    );
  });

  it('stays on the start host unless includeSubdomains, and never leaves the registrable domain', async () => {
    const own = await finished(
      (await crawl({ url: site.url('www.sub.test'), sitemap: 'skip' })).url,
    );
    expect(
      own.data.map((d: any) => new URL(d.url).host.split(':')[0] + new URL(d.url).pathname).sort(),
    ).toEqual(['www.sub.test/', 'www.sub.test/about']);
    const wide = await finished(
      (await crawl({ url: site.url('www.sub.test'), sitemap: 'skip', includeSubdomains: true }))
        .url,
    );
    expect(
      wide.data.map((d: any) => new URL(d.url).host.split(':')[0] + new URL(d.url).pathname).sort(),
    ).toEqual(['blog.sub.test/', 'blog.sub.test/post', 'www.sub.test/', 'www.sub.test/about']);
    expect(pageHits('other.test').length).toBe(0);
  });

  it('obeys robots.txt Disallow, Allow and Crawl-delay; ignoreRobotsTxt crawls everything', async () => {
    const { url } = await crawl({ url: site.url('robots.test'), sitemap: 'skip' });
    const { data } = await finished(url);
    expect(new Set(pathsOf(data))).toEqual(new Set(['/', '/a', '/b', '/private/open']));
    expect(site.count('robots.test/private/secret')).toBe(0);
    // Crawl-delay: 1 spaces the starts of page requests to the host by a second. Measured where
    // they arrive, so a loaded machine's scheduling jitter gets generous slack: no two arrivals
    // close together, three gaps of about three seconds in all (without the delay: milliseconds).
    const times = pageHits('robots.test').map((h) => h.at);
    expect(times.length).toBe(4);
    for (let i = 1; i < times.length; i++)
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(500);
    expect(times[3]! - times[0]!).toBeGreaterThanOrEqual(2500);

    const ignoring = await finished(
      (await crawl({ url: site.url('robots.test'), sitemap: 'skip', ignoreRobotsTxt: true })).url,
    );
    expect(new Set(pathsOf(ignoring.data))).toEqual(
      new Set(['/', '/a', '/b', '/private/open', '/private/secret']),
    );
  });

  it('reads the group of robots.txt that names its own agent, not the `*` group', async () => {
    const { data } = await finished(
      (await crawl({ url: site.url('agent.test'), sitemap: 'skip' })).url,
    );
    expect(new Set(pathsOf(data))).toEqual(new Set(['/', '/b']));
    expect(site.count('agent.test/a')).toBe(0);
  });

  it('seeds from the sitemap: include adds its pages to the links, skip ignores it, only follows no links', async () => {
    const include = await finished((await crawl({ url: site.url('maps.test') })).url);
    expect(new Set(pathsOf(include.data))).toEqual(new Set(['/', '/a', '/linked-only', '/orphan']));
    const orphan = include.data.find((d: any) => d.url.endsWith('/orphan'));
    expect(orphan).toMatchObject({ depth: 1, foundOn: site.url('maps.test', '/sitemap.xml') });
    const skip = await finished((await crawl({ url: site.url('maps.test'), sitemap: 'skip' })).url);
    expect(new Set(pathsOf(skip.data))).toEqual(new Set(['/', '/a', '/linked-only']));
    const only = await finished((await crawl({ url: site.url('maps.test'), sitemap: 'only' })).url);
    expect(new Set(pathsOf(only.data))).toEqual(new Set(['/', '/a', '/orphan']));
  });

  it('stops fetching at once when cancelled', async () => {
    const { id, url } = await crawl({ url: site.url('slow.test'), sitemap: 'skip', limit: 300 });
    await waitForJob(t, url, { until: (j) => j.completed >= 4 });
    const cancel = await t.api('DELETE', url);
    expect(cancel.status).toBe(200);
    expect(cancel.json).toMatchObject({ id, status: 'cancelled' });
    const cancelledAt = Date.now();
    await new Promise((r) => setTimeout(r, 2000));
    // Requests already in flight may finish; none starts once the running items saw the cancel.
    expect(pageHits('slow.test').filter((h) => h.at > cancelledAt + 1000)).toEqual([]);
    const after = (await t.api('GET', url)).json;
    expect(after.status).toBe('cancelled');
    expect(after.completed).toBeLessThan(after.total);
    await new Promise((r) => setTimeout(r, 500));
    expect((await t.api('GET', url)).json.completed).toBe(after.completed);
  });

  it("answers 404 for another user's crawl, whatever the verb", async () => {
    const { url } = await crawl({ url: site.url('paths.test'), limit: 1 });
    expect((await t.api('GET', url, undefined, TEST_KEY_2)).status).toBe(404);
    expect((await t.api('GET', `${url}/webhooks`, undefined, TEST_KEY_2)).status).toBe(404);
    expect((await t.api('DELETE', url, undefined, TEST_KEY_2)).status).toBe(404);
    const mine = await waitForJob(t, url);
    expect(mine).toMatchObject({ status: 'completed', total: 1 });
  });

  it('is described in the OpenAPI document with every option, as are the webhook endpoints', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, null)).json;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/crawl',
        '/api/v1/webhooks/secret',
        '/api/v1/scrape/async/job/{id}/webhooks',
      ]),
    );
    const body = doc.paths['/api/v1/crawl'].post.requestBody.content['application/json'].schema;
    for (const option of [
      'url',
      'limit',
      'maxDepth',
      'includePaths',
      'excludePaths',
      'includeSubdomains',
      'ignoreQueryParameters',
      'stayUnderStartPath',
      'sitemap',
      'ignoreRobotsTxt',
      'delayMs',
      'type',
      'onlyMainContent',
      'extractMetadata',
      'summary',
      'pdfStrategy',
      'proxy',
      'webhook',
    ]) {
      expect(body.properties[option], option).toBeDefined();
    }
    expect(
      doc.paths['/api/v1/scrape/async/batch'].post.requestBody.content['application/json'].schema
        .properties.webhook,
    ).toBeDefined();
  });

  it('refuses bad settings naming the field', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const { status, json } = await t.api('POST', '/api/v1/crawl', body);
      expect(status).toBe(400);
      expect(json.success).toBe(false);
      expect(JSON.stringify(json.details ?? json.error)).toContain(field);
    };
    await bad({ url: 'ftp://x.test/' }, 'url');
    await bad({ url: site.url('paths.test'), includePaths: ['('] }, 'includePaths[0]');
    // Lookarounds need backtracking, which RE2 leaves out so that matching stays linear.
    await bad(
      { url: site.url('paths.test'), excludePaths: ['^/docs/', '(?!x)y'] },
      'excludePaths[1]',
    );
    await bad({ url: site.url('paths.test'), limit: 10_001 }, 'limit');
    await bad({ url: site.url('paths.test'), sitemap: 'sometimes' }, 'sitemap');
    await bad({ url: site.url('paths.test'), maxPages: 3 }, 'maxPages');
  });
});
