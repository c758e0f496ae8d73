import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import { fromKysely, PgBoss } from 'pg-boss';
import type { Tables } from '../store/index.ts';
import type { ItemExecutor } from './executor.ts';
import type { JobQueue } from './queue.ts';
import type { JobStore } from './store.ts';

const QUEUE = 'webdata-job-items';

interface ItemMessage {
  jobId: string;
  index: number;
}

/**
 * The scale-out engine: one pg-boss job per item on the shared Postgres. pg-boss hands each to one
 * worker (SKIP LOCKED); a worker that stops heartbeating has its item failed back to `retry` by
 * whichever process supervises next, and another worker runs it. Our own item table still decides
 * what is recorded, so a late or duplicate run never writes twice.
 */
export class PgBossQueue implements JobQueue {
  readonly engine = 'pg-boss' as const;
  readonly #boss: PgBoss;
  #executor?: ItemExecutor;

  readonly #heartbeatSeconds: number;
  #started = false;

  constructor(url: string, heartbeatSeconds: number) {
    // Supervision (which finds silent workers) runs several times per heartbeat window, so a dead
    // worker's item is back in line at most about 1.2 heartbeats after its last sign of life.
    const superviseSeconds = Math.max(1, Math.floor(heartbeatSeconds / 5));
    this.#boss = new PgBoss({
      connectionString: url,
      max: 4,
      superviseIntervalSeconds: superviseSeconds,
      monitorIntervalSeconds: superviseSeconds,
      useListenNotify: true,
    });
    this.#heartbeatSeconds = heartbeatSeconds;
  }

  async start(log: FastifyBaseLogger): Promise<void> {
    this.#boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
    await this.#boss.start();
    this.#started = true;
    await this.#boss.createQueue(QUEUE, {
      heartbeatSeconds: this.#heartbeatSeconds,
      // Far above the attempts our executor allows: our item table decides when to give up.
      retryLimit: 10,
      retryDelay: 0,
      expireInSeconds: 15 * 60,
      deleteAfterSeconds: 60 * 60,
      notify: true,
    });
  }

  async enqueue(trx: Transaction<Tables>, jobId: string, count: number): Promise<void> {
    const jobs = Array.from({ length: count }, (_, index) => ({ data: { jobId, index } satisfies ItemMessage }));
    // Through our transaction, so a job and its queue entries commit together or not at all.
    await this.#boss.insert(QUEUE, jobs, { db: fromKysely(trx) });
  }

  created(): void {}

  async work(executor: ItemExecutor, store: JobStore, concurrency: number): Promise<void> {
    this.#executor = executor;
    await this.#boss.work<ItemMessage>(QUEUE, { localConcurrency: concurrency, batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
      const { jobId, index } = job!.data;
      // 'running' too: the runner that had it died (pg-boss only redelivers once its claim lapsed).
      const item = await store.claim(jobId, index, ['pending', 'running']);
      if (!item) return;
      const done = await executor.execute(item);
      if (!done) {
        await store.release(jobId, index);
        throw new Error('worker stopped before the item finished');
      }
    });
  }

  async close(): Promise<void> {
    this.#executor?.stopAll();
    if (this.#started) await this.#boss.stop({ graceful: true, timeout: 10_000 });
  }
}
