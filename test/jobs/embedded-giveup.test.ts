import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, useServer } from '../helpers/server.ts';
import { expectGivenUpMiddleItem } from './helpers.ts';

const site = useFixture(() => startFixtureSite());
const t = useServer();

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

    await expectGivenUpMiddleItem(t, `/api/v1/scrape/async/job/${job.id}`, 45_000);
    expect(site.hits.filter((h) => h.includes('embgiveup=1'))).toEqual([]);
  });
});
