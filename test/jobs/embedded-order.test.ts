import { describe, expect, it } from 'vitest';
import { JobStore } from '../../src/jobs/index.ts';
import { storeBackends } from '../helpers/backends.ts';
import { embeddedRunner, storeJob } from '../helpers/embedded-runner.ts';
import { useFixture } from '../helpers/fixture.ts';

const database = useFixture(storeBackends[0]![1]);

/**
 * The embedded runner claims from the job it claimed from last without looking for the oldest job
 * again; an item that goes back in line in an older job must still run before the newer job's rest.
 */
describe('the embedded queue runs the oldest job first', () => {
  it('takes an older job item that went back in line before the newer job has finished', {
    timeout: 20_000,
  }, async () => {
    const store = new JobStore(database.db);
    const older = await storeJob(store, 2);
    // Jobs made in the same millisecond have no order but their random ids': the newer one is
    // made a millisecond later at least.
    await new Promise((r) => setTimeout(r, 2));
    await storeJob(store, 30);
    const runs: string[] = [];
    let failedOnce = false;
    const queue = await embeddedRunner(store, 1, async (item) => {
      const name = `${item.jobId === older.id ? 'older' : 'newer'}:${item.index}`;
      runs.push(name);
      // The older job's second item fails below its operation once: it goes back in line after
      // the queue's retry pause (1 s), while the newer job's items run.
      if (name === 'older:1' && !failedOnce) {
        failedOnce = true;
        throw new Error('store briefly unreachable');
      }
      await new Promise((r) => setTimeout(r, 100));
    });
    try {
      await expect
        .poll(() => runs.filter((r) => r === 'older:1').length, { timeout: 10_000 })
        .toBe(2);
      expect(runs.slice(0, 3)).toEqual(['older:0', 'older:1', 'newer:0']);
      // Run again as soon as it was back in line (about ten of the newer job's items later), not
      // after the newer job's 30.
      expect(runs.filter((r) => r.startsWith('newer:')).length).toBeLessThan(25);
    } finally {
      await queue.close();
    }
  });
});
