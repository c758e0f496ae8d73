import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';
import {
  allPages,
  chargesOf,
  expectCompleted,
  spawnWorker,
  useCliProcesses,
  waitForJob,
} from './helpers.ts';

const site = useFixture(() => startFixtureSite());

describe('async jobs on Postgres with pg-boss, run by the serving process', () => {
  const t = useServer({ backend: 'postgres', settings: { WEBDATA_JOB_CONCURRENCY: '1' } });

  it('runs scrape-single and scrape-batch jobs end to end, in order, paged with next, scoped to the user', async () => {
    const single = await t.api(
      'POST',
      '/api/v1/scrape/async/single',
      { url: `${site.origin}/notes.txt` },
      TEST_KEY_2,
    );
    expect(single.status).toBe(202);
    const urls = [
      `${site.origin}/article.html?pg=1`,
      `${site.origin}/status/500`,
      `${site.origin}/notes.txt?pg=3`,
    ];
    const batch = await t.api('POST', '/api/v1/scrape/async/batch', { urls });
    expect(batch.status).toBe(202);

    const done = await waitForJob(t, batch.json.url);
    expectCompleted(done, 'scrape-batch', 3, 0.004);
    const { pages, data } = await allPages(t, batch.json.url, 2);
    expect(pages.length).toBe(2);
    expect(data.map((d) => [d.url, d.success])).toEqual([
      [urls[0], true],
      [urls[1], false],
      [urls[2], true],
    ]);
    expect((await waitForJob(t, single.json.url, { key: TEST_KEY_2 })).data[0].markdown).toContain(
      'Plain text notes.',
    );
    // Offsets and pages beyond any job are empty pages, whatever the column types.
    const far = await t.api('GET', `${batch.json.url}?offset=${Number.MAX_SAFE_INTEGER}&limit=100`);
    expect([far.status, far.json.data]).toEqual([200, []]);
    const farList = await t.api(
      'GET',
      `/api/v1/scrape/async/jobs?page=${Number.MAX_SAFE_INTEGER}&limit=100`,
    );
    expect([farList.status, farList.json.jobs]).toEqual([200, []]);

    const list = await t.api('GET', '/api/v1/scrape/async/jobs?type=scrape-batch');
    expect(list.json.jobs.map((j: any) => j.id)).toEqual([batch.json.id]);
    expect((await t.api('GET', single.json.url)).status).toBe(404);
    expect((await t.api('DELETE', single.json.url)).status).toBe(404);
    const charges = (
      await t.server.ledger.forUser((await t.server.keys.authenticate(TEST_KEY))!.userId)
    ).filter((r) => r.ref === batch.json.id);
    expect(charges.length).toBe(2);
  });

  it('cancels a running job: items not started never run', async () => {
    const slow = [1, 2, 3].map((n) => `${site.origin}/slow?ms=3000&pgcancel=${n}`);
    const created = await t.api('POST', '/api/v1/scrape/async/batch', { urls: slow });
    await waitForJob(t, created.json.url, {
      until: (j) => j.status === 'processing' && site.hits.some((h) => h.includes('pgcancel=1')),
    });
    const del = await t.api('DELETE', created.json.url);
    expect(del.status).toBe(200);
    expect(del.json.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 1500));
    const job = (await t.api('GET', created.json.url)).json;
    expect(job).toMatchObject({
      status: 'cancelled',
      completed: 0,
      cost: 0,
      data: [null, null, null],
    });
    expect(site.hits.filter((h) => /pgcancel=[23]/.test(h))).toEqual([]);
  });
});

describe('scale-out: serve without a worker, two `webdata worker` processes', () => {
  const t = useServer({
    backend: 'postgres',
    settings: { WEBDATA_WORKER: 'false', WEBDATA_JOB_HEARTBEAT_SECONDS: '10' },
  });
  const workers = useCliProcesses();
  const startWorker = (concurrency: number, heartbeatSeconds = 10) =>
    spawnWorker(workers, t, {
      WEBDATA_JOB_CONCURRENCY: String(concurrency),
      WEBDATA_JOB_HEARTBEAT_SECONDS: String(heartbeatSeconds),
    });

  it('completes a job after kill -9 of one of two workers while it runs items', {
    timeout: 90_000,
  }, async () => {
    const doomed = await startWorker(2);
    await startWorker(2);
    const urls = Array.from({ length: 4 }, (_, n) => `${site.origin}/slow?ms=4000&kill=${n}`);
    const hits = () => site.hits.filter((h) => h.includes('kill=')).length;
    const created = await t.api('POST', '/api/v1/scrape/async/batch', { urls });
    expect(created.status).toBe(202);
    // Four items in flight on two workers of two slots each: both workers are mid-item.
    await waitForJob(t, created.json.url, { until: () => hits() >= 4 });
    await doomed.kill9();
    expect(doomed.proc.signalCode).toBe('SIGKILL');
    expect((await t.api('GET', created.json.url)).json.completed).toBe(0);

    const job = await waitForJob(t, created.json.url, { timeoutMs: 60_000 });
    expect(job).toMatchObject({ status: 'completed', total: 4, completed: 4, cost: 0.008 });
    const { data } = await allPages(t, created.json.url, 10);
    expect(data.map((d: any) => [d.url, d.success])).toEqual(urls.map((u) => [u, true]));
    // The killed worker's two items were fetched again by the survivor, and recorded once.
    expect(hits()).toBe(6);
    const charges = await chargesOf(t.server.database, job.id);
    expect(charges.length).toBe(4);
  });

  it('a worker stopped with SIGTERM hands its running items straight back, without waiting for the heartbeat', {
    timeout: 90_000,
  }, async () => {
    for (const w of workers.splice(0)) await w.kill9();
    // A minute-long heartbeat: only the hand-back can get the items running again in time.
    const leaving = await startWorker(2, 60);
    const urls = [1, 2].map((n) => `${site.origin}/slow?ms=2000&term=${n}`);
    const hits = () => site.hits.filter((h) => h.includes('term=')).length;
    const created = await t.api('POST', '/api/v1/scrape/async/batch', { urls });
    await waitForJob(t, created.json.url, { until: () => hits() >= 2 });
    const stoppedAt = Date.now();
    leaving.proc.kill('SIGTERM');
    await new Promise((r) => leaving.proc.once('exit', r));
    expect(leaving.proc.exitCode).toBe(0);
    await startWorker(2, 60);
    const job = await waitForJob(t, created.json.url, { timeoutMs: 40_000 });
    expect(Date.now() - stoppedAt).toBeLessThan(40_000);
    expect(job).toMatchObject({ status: 'completed', completed: 2, cost: 0.004 });
    expect(hits()).toBe(4);
  });
});
