import { describe, expect, it } from 'vitest';
import { type CrawlSite, startCrawlSite } from '../fixtures/crawl-site.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { TEST_KEY_2, toLoopback, useServer } from '../helpers/server.ts';
import { runJob } from '../jobs/helpers.ts';

const site: CrawlSite = useFixture(() =>
  startCrawlSite({ generated: [{ host: 'shared.test', pages: 40, fanout: 5, sitemap: false }] }),
);
const t = useServer({
  settings: () => ({
    WEBDATA_TEST_RESOLVE: toLoopback(site.hosts),
    // Job slots are not what is tested here: enough for both crawls' pages at once.
    WEBDATA_JOB_CONCURRENCY: '32',
  }),
});

describe('crawl pacing per key and host (issue 51, row 9)', () => {
  it("paces each key by its own delay: a slow crawl of a host does not hold back another key's crawl of it", async () => {
    const slow = await t.api('POST', '/api/v1/crawl', {
      url: site.url('shared.test'),
      limit: 20,
      delayMs: 20_000,
      sitemap: 'skip',
    });
    expect(slow.status).toBe(202);
    // Its start page fetched and its links found: the rest of its pages wait out its delay.
    await waitFor(async () => {
      const job = await t.api('GET', slow.json.url);
      return job.json.total > 1;
    });
    const started = Date.now();
    const done = await runJob(
      t,
      '/api/v1/crawl',
      { url: site.url('shared.test', '/p/3'), limit: 4, sitemap: 'skip', maxDepth: 1 },
      { key: TEST_KEY_2, timeoutMs: 15_000 },
    );
    expect(done).toMatchObject({ status: 'completed', completed: 4 });
    // Sharing the first crawl's pacing, each of these pages would wait 20 s.
    expect(Date.now() - started).toBeLessThan(8_000);
    const first = await t.api('GET', slow.json.url);
    expect(first.json.completed).toBe(1);
    await t.api('DELETE', slow.json.url);
  });
});
