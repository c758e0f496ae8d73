import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSite, startFixtureSite } from '../fixtures/site/server.ts';
import { overlap, slowTextRoute, type Window } from '../fixtures/slow-origin.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { allPages, type CliProcess, spawnCli, waitForJob } from './helpers.ts';

const ITEMS = 16;
const PAGE_MS = 300;

const windows: Window[] = [];
let site: FixtureSite;
let pg: Awaited<ReturnType<typeof createTestDatabase>>;
let t: TestServer;
const workers: CliProcess[] = [];

beforeAll(async () => {
  site = await startFixtureSite({ '/slow-origin/*': slowTextRoute(windows) });
  pg = await createTestDatabase();
  // The serving process runs no items: the worker processes below run them all.
  t = await startTestServer({ DATABASE_URL: pg.url, WEBDATA_WORKER: 'false' });
});
afterAll(async () => {
  for (const w of workers) await w.kill9();
  await t?.close();
  await pg?.drop();
  await site?.close();
});

const startWorker = async () => {
  const w = spawnCli(['worker'], {
    DATABASE_URL: pg.url,
    WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
    WEBDATA_CONTENT_WORKERS: '0',
    // One item at a time per worker: any two items running at once ran in two workers.
    WEBDATA_JOB_CONCURRENCY: '1',
    WEBDATA_JOB_HEARTBEAT_SECONDS: '10',
  });
  workers.push(w);
  await w.waitFor(/webdata worker running job items/, 60_000);
};

describe('scale-out on Postgres', () => {
  it('two `webdata worker` processes of one slot each run an I/O-bound job side by side, in clearly less time than one', {
    timeout: 180_000,
  }, async () => {
    await Promise.all([startWorker(), startWorker()]);
    const urls = Array.from(
      { length: ITEMS },
      (_, i) => `${site.origin}/slow-origin/page-${i}?ms=${PAGE_MS}`,
    );
    const created = await t.api('POST', '/api/v1/scrape/async/batch', { urls });
    expect(created.status).toBe(202);
    const job = await waitForJob(t, created.json.url, { timeoutMs: 120_000 });
    expect(job).toMatchObject({ status: 'completed', total: ITEMS, completed: ITEMS });
    const { data } = await allPages(t, created.json.url, 100);
    expect(data.every((d: any) => d.success)).toBe(true);

    // Each page's window at the origin is an item's I/O; one slot would run them one after the
    // other (their sum). Measured as overlap, not wall time, so a loaded machine slows both sides.
    expect(windows.length).toBe(ITEMS);
    const { busyMs, sumMs, most } = overlap(windows);
    const seen = `busy ${busyMs.toFixed(0)} ms of ${sumMs.toFixed(0)} ms one after another, at most ${most} at once`;
    expect(most, seen).toBe(2);
    expect(busyMs, seen).toBeLessThan(0.7 * sumMs);
  });
});
