import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSite, startFixtureSite } from '../fixtures/site/server.ts';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';
import { allPages, waitForJob } from './helpers.ts';

let site: FixtureSite;
let t: TestServer;

beforeAll(async () => {
  site = await startFixtureSite();
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
  await site?.close();
});

describe('the embedded queue (SQLite)', () => {
  it('completes a job whose queue gave up on one item: that item fails with the reason and costs nothing', {
    timeout: 60_000,
  }, async () => {
    const { userId } = (await t.server.keys.authenticate(TEST_KEY))!;
    const urls = [
      `${site.origin}/notes.txt?embgiveup=0`,
      `${site.origin}/notes.txt?embgiveup=1`,
      `${site.origin}/notes.txt?embgiveup=2`,
    ];
    // Stored without waking the dispatcher, so item 1 can be broken before anything claims it.
    const job = await t.server.jobs.store.create(
      { userId, type: 'scrape-batch', inputs: urls.map((url) => ({ url })), ttlMs: 60_000 },
      async () => undefined,
    );
    // Handling item 1 now fails below its operation on every attempt (its stored input cannot be
    // read), as it would while the database kept failing.
    await t.server.database.db
      .updateTable('job_items')
      .set({ input: '{not json' })
      .where('job_id', '=', job.id)
      .where('idx', '=', 1)
      .execute();
    // Any new job wakes the dispatcher, which claims the pending items of both.
    const other = await t.api('POST', '/api/v1/scrape/async/single', {
      url: `${site.origin}/notes.txt?embgiveup=wake`,
    });
    expect(other.status).toBe(202);

    const url = `/api/v1/scrape/async/job/${job.id}`;
    const done = await waitForJob(t, url, { timeoutMs: 45_000 });
    expect(done).toMatchObject({ status: 'completed', total: 3, completed: 3 });
    const { data } = await allPages(t, url, 10);
    expect(data.map((d: any) => d.success)).toEqual([true, false, true]);
    expect(data[1]).toMatchObject({ success: false, cost: 0 });
    expect(data[1].error).toMatch(
      /job queue gave up on this item after 11 attempts \(last: .*JSON/,
    );
    expect(done.cost).toBeCloseTo(data[0].cost + data[2].cost, 6);
    const charges = await t.server.database.db
      .selectFrom('usage_ledger')
      .selectAll()
      .where('ref', '=', job.id)
      .execute();
    expect(charges.length).toBe(2);
    expect(site.hits.filter((h) => h.includes('embgiveup=1'))).toEqual([]);
  });
});
