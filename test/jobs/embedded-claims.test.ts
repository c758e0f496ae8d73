import { describe, expect, it, vi } from 'vitest';
import { JobStore } from '../../src/jobs/index.ts';
import { storeBackends } from '../helpers/backends.ts';
import { embeddedRunner, storeJob } from '../helpers/embedded-runner.ts';
import { useFixture } from '../helpers/fixture.ts';

const database = useFixture(storeBackends[0]![1]);

/**
 * Each claim is a write transaction of its own, so the embedded runner claims several slots'
 * worth of items at a time rather than one group per freed slot, and still never runs more items
 * at once than its concurrency.
 */
describe('the embedded queue claims ahead of its slots', () => {
  it('runs a 64-item job in a few claims, at most `concurrency` items at once', async () => {
    const store = new JobStore(database.db);
    await storeJob(store, 64);
    const claims = vi.spyOn(store, 'claimPending');
    const ran: number[] = [];
    let running = 0;
    let most = 0;
    const queue = await embeddedRunner(store, 4, async (item) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 2));
      running--;
      ran.push(item.index);
    });
    try {
      await expect.poll(() => ran.length, { timeout: 10_000 }).toBe(64);
      expect(new Set(ran).size).toBe(64);
      expect(most).toBe(4);
      // One claim per freed slot's group of 4 would take 16; ahead of the slots, 4 and the empty look.
      const withItems = await Promise.all(claims.mock.results.map((r) => r.value));
      expect(withItems.filter((c) => c.items.length > 0).length).toBeLessThanOrEqual(8);
    } finally {
      await queue.close();
    }
  });
});
