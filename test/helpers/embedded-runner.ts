import { pino } from 'pino';
import { EmbeddedQueue } from '../../src/jobs/embedded-queue.ts';
import type { ItemExecutor } from '../../src/jobs/executor.ts';
import type { JobStore } from '../../src/jobs/index.ts';
import type { ClaimedItem } from '../../src/jobs/types.ts';

/** Stores a scrape-batch job of `n` items for user `u`. */
export function storeJob(store: JobStore, n: number) {
  return store.create(
    {
      userId: 'u',
      type: 'scrape-batch',
      inputs: Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${i}` })),
      ttlMs: 60_000,
    },
    async () => undefined,
  );
}

/**
 * An embedded queue at work on `store` with an executor that only calls `run` for each claimed
 * item (a throw is a failure below the operation) and records nothing: what the queue claims, in
 * what order and how many at once, without the operations behind it.
 */
export async function embeddedRunner(
  store: JobStore,
  concurrency: number,
  run: (item: ClaimedItem) => Promise<void>,
): Promise<EmbeddedQueue> {
  const executor = {
    async execute(item: ClaimedItem) {
      await run(item);
      return { stopped: false as const, recorded: Promise.resolve() };
    },
    async giveUp() {},
    stopAll() {},
    async drain() {},
  } as unknown as ItemExecutor;
  const queue = new EmbeddedQueue();
  await queue.work({ executor, store, concurrency, log: pino({ level: 'silent' }) });
  return queue;
}
