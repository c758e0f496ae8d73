import { expect, it } from 'vitest';
import { linksPage, startCrawlSite } from '../fixtures/crawl-site.ts';
import { useFixture } from '../helpers/fixture.ts';
import { toLoopback, useServer } from '../helpers/server.ts';
import { checksAtLeast, FAST_MONITORS } from './helpers.ts';

let links = ['/a', '/b'];
const site = useFixture(() =>
  startCrawlSite({
    pages: {
      'watched.test': {
        '/': linksPage('Home', () => links),
        '/a': linksPage('A', []),
        '/b': linksPage('B', []),
        '/c': linksPage('C', []),
      },
    },
  }),
);
const t = useServer({
  settings: () => ({
    ...FAST_MONITORS,
    WEBDATA_MONITORS_PER_KEY: '2',
    WEBDATA_TEST_RESOLVE: toLoopback(site.hosts),
  }),
});

it('checks the pages a crawl finds each time, a page found later being a change', {
  timeout: 60_000,
}, async () => {
  const made = await t.api('POST', '/api/v1/monitors', {
    crawl: { url: site.url('watched.test'), sitemap: 'skip' },
    schedule: { intervalSeconds: 2 },
  });
  expect(made.status).toBe(201);
  const id = made.json.monitor.id;
  const [baseline] = await checksAtLeast(t, id, 1);
  expect(baseline.pages.map((p: any) => p.status)).toEqual(['new', 'new', 'new']);
  expect(baseline.changed).toBe(0);
  expect(baseline.cost).toBeCloseTo(0.006, 6);

  links = ['/a', '/b', '/c'];
  const n = (await checksAtLeast(t, id, 1)).length;
  const checks = await checksAtLeast(t, id, n + 2);
  const found = checks.find((c: any) => c.changed > 0);
  // The start page now links to /c too: it changed, and /c is new.
  const statuses = Object.fromEntries(
    found.pages.map((p: any) => [new URL(p.url).pathname, p.status]),
  );
  expect(statuses).toEqual({ '/': 'changed', '/a': 'same', '/b': 'same', '/c': 'new' });
  expect(found.changed).toBe(2);
  await t.api('PATCH', `/api/v1/monitors/${id}`, { paused: true });
});

it('refuses a monitor past WEBDATA_MONITORS_PER_KEY with 409', async () => {
  const body = {
    urls: [site.url('watched.test', '/a')],
    schedule: { intervalSeconds: 60 },
    paused: true,
  };
  expect((await t.api('POST', '/api/v1/monitors', body)).status).toBe(201);
  const over = await t.api('POST', '/api/v1/monitors', body);
  expect(over.status).toBe(409);
  expect(over.json.error).toContain('WEBDATA_MONITORS_PER_KEY');
});
