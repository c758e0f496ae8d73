import { expect, it } from 'vitest';
import { openDatabase } from '../../src/store/index.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { chargesOf, embeddedServe, useCliProcesses, waitForJob } from './helpers.ts';

const data = useFixture(() => tempDir('webdata-crash-'));
const site = useFixture(() => startFixtureSite());
const running = useCliProcesses();

it('resumes a job after kill -9 of the embedded server: every item recorded and charged exactly once', {
  timeout: 150_000,
}, async () => {
  const { serve, crashAt, client } = await embeddedServe(running, {
    WEBDATA_DATA_DIR: data.path,
    WEBDATA_JOB_CONCURRENCY: '2',
  });
  const first = await serve();

  const urls = Array.from({ length: 6 }, (_, n) => `${site.origin}/slow?ms=1000&n=${n}`);
  const created = await client.api('POST', '/api/v1/scrape/async/batch', { urls });
  expect(created.status).toBe(202);
  // Some items done, two more in flight: the worst moment to lose the process.
  const inFlight = () => site.hits.filter((h) => h.startsWith('/slow')).length;
  const second = await crashAt(
    first,
    created.json.url,
    (j) => j.completed >= 2 && j.completed <= 4 && inFlight() >= j.completed + 2,
  );
  const job = await waitForJob(client, created.json.url, { timeoutMs: 30_000 });
  expect(job).toMatchObject({ status: 'completed', total: 6, completed: 6, cost: 0.012 });
  expect(job.data.map((d: any) => [d.url, d.success])).toEqual(urls.map((u) => [u, true]));
  // The items cut off by the kill were fetched again, yet recorded once.
  expect(inFlight()).toBeGreaterThan(6);
  await second.kill9();

  const database = await openDatabase({ databaseUrl: '', dataDir: data.path });
  try {
    const charges = await chargesOf(database, job.id);
    expect(charges.length).toBe(6);
    const items = await database.db
      .selectFrom('job_items')
      .select(['idx', 'state'])
      .where('job_id', '=', job.id)
      .orderBy('idx')
      .execute();
    expect(items.map((i) => i.state)).toEqual(Array(6).fill('done'));
  } finally {
    await database.close();
  }
});
