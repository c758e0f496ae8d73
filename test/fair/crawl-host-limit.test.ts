import { describe, expect, it } from 'vitest';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.ts';
import { useFixture } from '../helpers/fixture.ts';
import { type TestServer, toLoopback, useServer } from '../helpers/server.ts';
import { waitForJob } from '../jobs/helpers.ts';

// Pages slow enough that a crawl's items overlap whenever the host's limit lets them.
const site: CrawlSite = useFixture(() =>
  startCrawlSite({
    generated: [
      { host: 'narrow.test', pages: 12, fanout: 11, sitemap: false, pageDelayMs: 400 },
      { host: 'wide.test', pages: 12, fanout: 11, sitemap: false, pageDelayMs: 400 },
    ],
  }),
);
const serverWith = (perHost: number) =>
  useServer({
    settings: () => ({
      WEBDATA_TEST_RESOLVE: toLoopback(site.hosts),
      WEBDATA_CRAWL_HOST_CONCURRENCY: String(perHost),
    }),
  });
// Two services in one process, as a test run or an embedded CLI has them.
const narrow = serverWith(1);
const wide = serverWith(4);

async function crawl(t: TestServer, host: string): Promise<void> {
  const started = await t.api('POST', '/api/v1/crawl', {
    url: site.url(host),
    limit: 12,
    sitemap: 'skip',
  });
  expect(started.status).toBe(202);
  expect(await waitForJob(t, started.json.url, { timeoutMs: 60_000 })).toMatchObject({
    status: 'completed',
    completed: 12,
  });
}

describe('crawl politeness belongs to each service', () => {
  it("keeps each service's own per-host limit, whichever service crawled first", async () => {
    await crawl(narrow, 'narrow.test');
    expect(site.peakInflight.get('narrow.test')).toBe(1);
    await crawl(wide, 'wide.test');
    // One gate for the whole process would have kept the first service's limit of one.
    expect(site.peakInflight.get('wide.test')).toBeGreaterThan(1);
    expect(site.peakInflight.get('wide.test')).toBeLessThanOrEqual(4);
  }, 120_000);
});
