import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/index.ts';
import { startCrawlSite } from '../fixtures/crawl-site.ts';
import { useFixture } from '../helpers/fixture.ts';
import { type TestServer, toLoopback, useServer } from '../helpers/server.ts';
import {
  allPages,
  chargesOf,
  embeddedServe,
  spawnWorker,
  useCliProcesses,
  waitForJob,
} from './helpers.ts';

const LIMIT = 30;

const site = useFixture(() =>
  startCrawlSite({
    generated: [
      { host: 'embedded.test', pages: 200, fanout: 4, sitemap: false, pageDelayMs: 400 },
      { host: 'workers.test', pages: 200, fanout: 4, sitemap: false, pageDelayMs: 400 },
    ],
  }),
);
const running = useCliProcesses();

const pageHits = (host: string) =>
  site.hits.filter((h) => h.path.startsWith(`${host}/`) && !h.path.endsWith('/robots.txt'));

/** Starts a crawl of `host` up to LIMIT pages, links only, and returns its job's poll URL. */
async function startCrawl(c: Pick<TestServer, 'api'>, host: string): Promise<string> {
  const created = await c.api('POST', '/api/v1/crawl', {
    url: site.url(host),
    limit: LIMIT,
    sitemap: 'skip',
  });
  expect(created.status).toBe(202);
  return created.json.url;
}

/** Every page once in the results, each charged once, the limit reached and never passed. */
function expectExactlyOnce(job: any, data: any[], charges: number) {
  expect(job).toMatchObject({
    status: 'completed',
    total: LIMIT,
    completed: LIMIT,
    cost: LIMIT * 0.002,
  });
  expect(data.length).toBe(LIMIT);
  expect(data.every((d) => d.success)).toBe(true);
  expect(new Set(data.map((d) => d.url)).size).toBe(LIMIT);
  expect(charges).toBe(LIMIT);
}

describe('crawl durability', () => {
  it('resumes a crawl after kill -9 of the embedded server: limit kept, each page recorded and charged once', {
    timeout: 150_000,
  }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'webdata-crawl-crash-'));
    try {
      const { serve, crashAt, client } = await embeddedServe(running, {
        WEBDATA_DATA_DIR: dataDir,
        WEBDATA_TEST_RESOLVE: toLoopback(site.hosts),
        WEBDATA_JOB_CONCURRENCY: '4',
      });
      const first = await serve();
      const jobUrl = await startCrawl(client, 'embedded.test');
      // Pages recorded, more in flight, more discovered and waiting: the worst moment to lose the process.
      const hits = () => pageHits('embedded.test').length;
      const second = await crashAt(
        first,
        jobUrl,
        (j) => j.completed >= 5 && j.completed <= 20 && hits() >= j.completed + 2,
      );
      const job = await waitForJob(client, jobUrl, { timeoutMs: 60_000 });
      const { data } = await allPages(client, jobUrl, 100);
      await second.kill9();

      const database = await openDatabase({ databaseUrl: '', dataDir });
      try {
        const charges = await chargesOf(database, job.id);
        expectExactlyOnce(job, data, charges.length);
        const items = await database.db
          .selectFrom('job_items')
          .select('state')
          .where('job_id', '=', job.id)
          .execute();
        expect(items.length).toBe(LIMIT);
        expect(items.every((i) => i.state === 'done')).toBe(true);
      } finally {
        await database.close();
      }
      // Only the pages cut off by the kill were fetched again: those running on the 4 slots, and
      // those whose results waited for their group commit (a runner's slot is free while its
      // result lingers for others to share the transaction: at most one per slot).
      const fetched = pageHits('embedded.test').map((h) => h.path);
      expect(new Set(fetched).size).toBe(LIMIT);
      expect(fetched.length - LIMIT).toBeLessThanOrEqual(2 * 4);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  describe('on Postgres with two workers', () => {
    const t = useServer({
      backend: 'postgres',
      settings: () => ({ WEBDATA_WORKER: 'false', WEBDATA_TEST_RESOLVE: toLoopback(site.hosts) }),
    });

    it('completes a crawl after kill -9 of one worker: limit kept, each page recorded and charged once', {
      timeout: 120_000,
    }, async () => {
      const startWorker = () =>
        spawnWorker(running, t, {
          WEBDATA_TEST_RESOLVE: toLoopback(site.hosts),
          WEBDATA_JOB_CONCURRENCY: '3',
          WEBDATA_JOB_HEARTBEAT_SECONDS: '10',
        });
      const doomed = await startWorker();
      await startWorker();
      const jobUrl = await startCrawl(t, 'workers.test');
      const hits = () => pageHits('workers.test').length;
      await waitForJob(t, jobUrl, {
        until: (j) => j.completed >= 5 && j.completed <= 20 && hits() >= j.completed + 2,
      });
      await doomed.kill9();
      const job = await waitForJob(t, jobUrl, { timeoutMs: 90_000 });
      const { data } = await allPages(t, jobUrl, 100);
      const charges = await chargesOf(t.server.database, job.id);
      expectExactlyOnce(job, data, charges.length);
      const fetched = pageHits('workers.test').map((h) => h.path);
      expect(new Set(fetched).size).toBe(LIMIT);
    });
  });
});
