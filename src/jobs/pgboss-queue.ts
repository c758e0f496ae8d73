import type { FastifyBaseLogger } from 'fastify';
import { fromKysely, PgBoss, type Job, type JobWithMetadata } from 'pg-boss';
import type { ItemExecutor } from './executor.ts';
import type { JobQueue } from './queue.ts';
import type { JobStore } from './store.ts';
import type { EnqueueItems, ItemRef } from './types.ts';
import { coalesced } from './coalesce.ts';

const QUEUE = 'webdata-job-items';
/** pg-boss moves an item here once it stops retrying it, whatever the reason; we record it as failed. */
const GIVEN_UP = 'webdata-job-items-given-up';

/** Attempts pg-boss makes at an item whose handling fails below the item operation (the database unreachable, say). */
const QUEUE_RETRY_LIMIT = 10;
/** Spreads those attempts over seconds, so a brief outage does not use them all up at once. */
const QUEUE_RETRY_DELAY_SECONDS = 1;
/** How often a process looks for items pg-boss gave up on; they are rare, so this need not be quick. */
const GIVEN_UP_POLL_SECONDS = 2;

/** How often an idle worker asks the queue for items; the most a new item waits for an idle worker. */
const IDLE_POLL_MS = 250;

/** The item and whose job of which type, so claiming it takes no extra read. */
type ItemMessage = ItemRef;

interface Running {
  executor: ItemExecutor;
  store: JobStore;
  concurrency: number;
  log: FastifyBaseLogger;
}

/**
 * The scale-out engine: one pg-boss job per item on the shared Postgres. pg-boss hands each to one
 * worker (SKIP LOCKED) and records its heartbeat; a worker that stops heartbeating has its item
 * failed back to `retry` by whichever process supervises next, and another worker runs it. Our own
 * item table still decides what is recorded, so a late or duplicate run never writes twice.
 *
 * Items are pulled with `fetch` by one dispatcher per process rather than with `work`: pg-boss's
 * workers each sleep a polling interval after every short job, which caps a worker slot at a few
 * items a second; the dispatcher pulls again the moment a slot frees.
 */
export class PgBossQueue implements JobQueue {
  readonly engine = 'pg-boss' as const;
  readonly #boss: PgBoss;
  readonly #heartbeatSeconds: number;
  #started = false;
  #run?: Running;
  /** Fetches items until the concurrency is used up; triggers during a pass coalesce. */
  readonly #pump = coalesced(() => this.#fetchItems());
  #closed = false;
  #poll?: NodeJS.Timeout;
  #heartbeat?: NodeJS.Timeout;
  readonly #inflight = new Map<string, Job<ItemMessage>>();
  readonly #tasks = new Set<Promise<void>>();

  constructor(url: string, heartbeatSeconds: number) {
    // Supervision (which finds silent workers) runs several times per heartbeat window, so a dead
    // worker's item is back in line at most about 1.2 heartbeats after its last sign of life.
    const superviseSeconds = Math.max(1, Math.floor(heartbeatSeconds / 5));
    this.#boss = new PgBoss({ connectionString: url, max: 4, superviseIntervalSeconds: superviseSeconds, monitorIntervalSeconds: superviseSeconds });
    this.#heartbeatSeconds = heartbeatSeconds;
  }

  async start(log: FastifyBaseLogger): Promise<void> {
    this.#boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
    await this.#boss.start();
    this.#started = true;
    // Recording a given-up item only fails while the database does; it is retried until it is back.
    const givenUp = { retryLimit: 1_000, retryDelay: 5, retryBackoff: true, retryDelayMax: 60, deleteAfterSeconds: 60 * 60 };
    const options = {
      heartbeatSeconds: this.#heartbeatSeconds,
      // Far above the attempts our executor allows for dead runners: our item table decides when
      // to give up on an item whose runs stop; this limit only ends failures below the operation.
      retryLimit: QUEUE_RETRY_LIMIT,
      retryDelay: QUEUE_RETRY_DELAY_SECONDS,
      expireInSeconds: 15 * 60,
      deleteAfterSeconds: 60 * 60,
      deadLetter: GIVEN_UP,
    };
    // createQueue leaves an existing queue alone; the settings of the latest process to start apply.
    await this.#boss.createQueue(GIVEN_UP, givenUp);
    await this.#boss.updateQueue(GIVEN_UP, givenUp);
    await this.#boss.createQueue(QUEUE, options);
    await this.#boss.updateQueue(QUEUE, options);
  }

  readonly enqueue: EnqueueItems = async (trx, job) => {
    const jobs = Array.from({ length: job.count }, (_, n) => ({ data: { jobId: job.id, index: job.from + n, userId: job.userId, type: job.type } satisfies ItemMessage }));
    // Through our transaction, so a job and its queue entries commit together or not at all.
    await this.#boss.insert(QUEUE, jobs, { db: fromKysely(trx) });
  };

  created(): void {
    void this.#pump();
  }

  async work(executor: ItemExecutor, store: JobStore, concurrency: number, log: FastifyBaseLogger): Promise<void> {
    this.#run = { executor, store, concurrency, log };
    this.#heartbeat = setInterval(() => {
      const attempts = [...this.#inflight.values()].map((j) => ({ id: j.id, retryCount: j.retryCount }));
      if (attempts.length) this.#boss.touch(QUEUE, attempts).catch((err) => log.warn({ err }, 'job heartbeat failed'));
    }, (this.#heartbeatSeconds * 1000) / 2);
    void this.#pump();
    const givenUp = { pollingIntervalSeconds: GIVEN_UP_POLL_SECONDS, batchSize: 20, includeMetadata: true } as const;
    await this.#boss.work<ItemMessage, void, typeof givenUp>(GIVEN_UP, givenUp, (jobs) => this.#giveUp(executor, jobs));
  }

  /**
   * Items pg-boss stopped retrying (its retry limit, or its last attempt's heartbeat lapsed) would
   * otherwise stay without a result, and their job `processing` until it expires.
   */
  async #giveUp(executor: ItemExecutor, jobs: JobWithMetadata<ItemMessage>[]): Promise<void> {
    for (const job of jobs) {
      const attempts = (job.sourceRetryCount ?? 0) + 1;
      const last = (job.sourceOutput as { message?: unknown } | null)?.message;
      const reason = `the job queue gave up on this item after ${attempts} attempts${typeof last === 'string' ? ` (last: ${last})` : ''}`;
      await executor.giveUp(job.data, reason);
    }
  }

  async #fetchItems(): Promise<void> {
    const run = this.#run;
    if (!run || this.#closed) return;
    clearTimeout(this.#poll);
    try {
      while (!this.#closed && this.#inflight.size < run.concurrency) {
        const jobs = await this.#boss.fetch<ItemMessage>(QUEUE, { batchSize: run.concurrency - this.#inflight.size });
        if (!jobs || jobs.length === 0) break;
        for (const job of jobs) this.#start(run, job);
      }
    } catch (err) {
      run.log.error({ err }, 'could not fetch job items');
    }
    if (!this.#closed && this.#inflight.size < run.concurrency) this.#poll = setTimeout(() => void this.#pump(), IDLE_POLL_MS);
  }

  #start(run: Running, job: Job<ItemMessage>): void {
    this.#inflight.set(job.id, job);
    const attempt = { id: job.id, retryCount: job.retryCount };
    const task: Promise<void> = this.#handle(run, job.data)
      .then(
        () => this.#boss.complete(QUEUE, attempt),
        (err: Error) => this.#boss.fail(QUEUE, attempt, { message: err.message }),
      )
      .then(
        () => undefined,
        (err) => run.log.error({ err, item: job.data }, 'could not settle a job item in the queue; its heartbeat lapses and it runs again'),
      )
      .finally(() => {
        this.#inflight.delete(job.id);
        this.#tasks.delete(task);
        void this.#pump();
      });
    this.#tasks.add(task);
  }

  async #handle(run: Running, ref: ItemMessage): Promise<void> {
    // 'running' too: the runner that had it died (pg-boss only hands it out again once its heartbeat lapsed).
    const item = await run.store.claim(ref, ['pending', 'running']);
    if (!item) return;
    const done = await run.executor.execute(item);
    if (!done) {
      await run.store.release(ref.jobId, ref.index);
      throw new Error('worker stopped before the item finished');
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#poll);
    clearInterval(this.#heartbeat);
    this.#run?.executor.stopAll();
    await Promise.allSettled([...this.#tasks]);
    if (this.#started) await this.#boss.stop({ graceful: true, timeout: 10_000 });
  }
}
