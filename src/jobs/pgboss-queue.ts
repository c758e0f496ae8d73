import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { fromKysely, type Job, type JobWithMetadata, PgBoss } from 'pg-boss';
import type { Tables } from '../store/index.ts';
import { coalesced } from './coalesce.ts';
import type { ItemExecutor } from './executor.ts';
import type { JobStore } from './job-store.ts';
import { givenUpReason, type JobQueue, QUEUE_RETRY_LIMIT, type QueueWorker } from './queue.ts';
import {
  ACTIVE_STATUSES,
  type ClaimedItem,
  type EnqueueItems,
  type ItemKey,
  type ItemRef,
  keyOf,
} from './types.ts';

const QUEUE = 'webdata-job-items';
/** pg-boss moves an item here once it stops retrying it, whatever the reason; we record it as failed. */
const GIVEN_UP = 'webdata-job-items-given-up';

/** Spreads a failing item's attempts over seconds, so a brief outage does not use them all up at once. */
const QUEUE_RETRY_DELAY_SECONDS = 1;
/** How often a process looks for items pg-boss gave up on; they are rare, so this need not be quick. */
const GIVEN_UP_POLL_SECONDS = 2;

/**
 * Items that take less than this on average are fetched ahead (half the concurrency again), so the
 * fetch and claim round trips are shared by a group; a fetched item then waits at most about one
 * item's time. Longer items are fetched only for free slots: their round trips are cheap next to
 * them, and items held ahead would wait while other workers could run them.
 */
const PREFETCH_BELOW_MS = 1000;

/** How often an idle worker asks the queue for items; the most a new item waits for an idle worker. */
const IDLE_POLL_MS = 250;

/** The item and whose job of which type, so claiming it takes no extra read. */
type ItemMessage = ItemRef;

/**
 * The scale-out queue: one pg-boss job per item on the shared Postgres. pg-boss hands each to one
 * worker (SKIP LOCKED) and records its heartbeat; a worker that stops heartbeating has its item
 * failed back to `retry` by whichever process supervises next, and another worker runs it. Our own
 * item table still decides what is recorded, so a late or duplicate run never writes twice.
 *
 * Round trips are paid per group, not per item: one dispatcher per process fetches a group of
 * items (the free slots and half as many again, which wait in a local buffer) and claims them in
 * our table in one statement; results are written in batches (`ItemRecorder`) whose transaction
 * also completes their pg-boss jobs. Items are pulled with `fetch` rather than `work`: pg-boss's
 * workers each sleep a polling interval after every short job.
 */
export class PgBossQueue implements JobQueue {
  readonly #boss: PgBoss;
  readonly #heartbeatSeconds: number;
  #started = false;
  #run?: QueueWorker;
  /** Fetches items until the concurrency is used up; triggers during a pass coalesce. */
  readonly #pump = coalesced(() => this.#fetchItems());
  #closed = false;
  #poll?: NodeJS.Timeout;
  #heartbeat?: NodeJS.Timeout;
  /** Fetched items not yet settled in pg-boss (buffered, running or being recorded), by item. */
  readonly #inflight = new Map<string, Job<ItemMessage>>();
  /** Claimed items waiting for a free slot. */
  #buffer: ClaimedItem[] = [];
  #running = 0;
  /** Moving average of how long this process's items take to run. */
  #meanMs?: number;
  readonly #tasks = new Set<Promise<void>>();

  constructor(url: string, heartbeatSeconds: number) {
    // Supervision (which finds silent workers) runs several times per heartbeat window, so a dead
    // worker's item is back in line at most about 1.2 heartbeats after its last sign of life.
    const superviseSeconds = Math.max(1, Math.floor(heartbeatSeconds / 5));
    this.#boss = new PgBoss({
      connectionString: url,
      max: 4,
      superviseIntervalSeconds: superviseSeconds,
      monitorIntervalSeconds: superviseSeconds,
    });
    this.#heartbeatSeconds = heartbeatSeconds;
  }

  async start(log: FastifyBaseLogger): Promise<void> {
    this.#boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
    await this.#boss.start();
    this.#started = true;
    // Recording a given-up item only fails while the database does; it is retried until it is back.
    const givenUp = {
      retryLimit: 1_000,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 60,
      deleteAfterSeconds: 60 * 60,
    };
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

  /**
   * Users take turns through pg-boss's priority, which its fetch serves first (then oldest): an
   * item's priority is minus the items of its user queued or running ahead of it, so the n-th
   * item of every user's backlog comes before the n+1-th of any. Chosen over pg-boss's group
   * concurrency, which caps a user's items running at once across all workers but, with items
   * fetched oldest first, still makes a second user wait for a first user's whole backlog
   * whenever the cap is the workers' concurrency or above; and over our own claiming SQL, which
   * would give up pg-boss's heartbeats and retries. One count per batch of items queued.
   */
  readonly enqueue: EnqueueItems = async (trx, job) => {
    const { rows } = await sql<{ ahead: number | string }>`
      select count(*) as ahead from job_items i join jobs j on j.id = i.job_id
      where j.user_id = ${job.userId} and j.status in (${sql.join(ACTIVE_STATUSES)})
        and i.state in ('pending', 'running')
        and not (i.job_id = ${job.id} and i.idx >= ${job.from})`.execute(trx);
    const ahead = Number(rows[0]?.ahead ?? 0);
    const jobs = Array.from({ length: job.count }, (_, n) => ({
      priority: -(ahead + n),
      data: {
        jobId: job.id,
        index: job.from + n,
        userId: job.userId,
        type: job.type,
      } satisfies ItemMessage,
    }));
    // Through our transaction, so a job and its queue entries commit together or not at all.
    await this.#boss.insert(QUEUE, jobs, { db: fromKysely(trx) });
  };

  /** Completes the items' pg-boss jobs in the transaction recording their results: one statement per batch. */
  async settle(trx: Transaction<Tables>, items: ItemKey[]): Promise<void> {
    const attempts = items.flatMap((item) => {
      const job = this.#inflight.get(keyOf(item));
      return job ? [{ id: job.id, retryCount: job.retryCount }] : [];
    });
    if (attempts.length > 0)
      await this.#boss.complete(QUEUE, attempts, null, { db: fromKysely(trx) });
  }

  created(): void {
    void this.#pump();
  }

  async work(worker: QueueWorker): Promise<void> {
    const { executor, log } = worker;
    this.#run = worker;
    this.#heartbeat = setInterval(
      () => {
        const attempts = [...this.#inflight.values()].map((j) => ({
          id: j.id,
          retryCount: j.retryCount,
        }));
        if (attempts.length)
          this.#boss
            .touch(QUEUE, attempts)
            .catch((err) => log.warn({ err }, 'job heartbeat failed'));
      },
      (this.#heartbeatSeconds * 1000) / 2,
    );
    void this.#pump();
    const givenUp = {
      pollingIntervalSeconds: GIVEN_UP_POLL_SECONDS,
      batchSize: 20,
      includeMetadata: true,
    } as const;
    await this.#boss.work<ItemMessage, void, typeof givenUp>(GIVEN_UP, givenUp, (jobs) =>
      this.#giveUp(executor, jobs),
    );
  }

  /**
   * Items pg-boss stopped retrying (its retry limit, or its last attempt's heartbeat lapsed) would
   * otherwise stay without a result, and their job `processing` until it expires.
   */
  async #giveUp(executor: ItemExecutor, jobs: JobWithMetadata<ItemMessage>[]): Promise<void> {
    await Promise.all(
      jobs.map((job) => {
        const last = (job.sourceOutput as { message?: unknown } | null)?.message;
        return executor.giveUp(job.data, givenUpReason((job.sourceRetryCount ?? 0) + 1, last));
      }),
    );
  }

  /** Starts buffered items in free slots; synchronous, so a freed slot never waits for a fetch in flight. */
  #fill(run: QueueWorker): void {
    while (!this.#closed && this.#running < run.concurrency && this.#buffer.length > 0)
      this.#start(run, this.#buffer.shift()!);
  }

  /** Items to hold claimed ahead of free slots: for short items half the concurrency, so the fetch and claim are shared by a group. */
  #ahead(run: QueueWorker): number {
    return this.#meanMs !== undefined && this.#meanMs < PREFETCH_BELOW_MS
      ? Math.ceil(run.concurrency / 2)
      : 0;
  }

  /**
   * Fetches while slots are free or the buffer runs low (under half of what is held ahead), each
   * time the free slots and what refills the buffer; started slots take from the buffer meanwhile.
   */
  async #fetchItems(): Promise<void> {
    const run = this.#run;
    if (!run || this.#closed) return;
    clearTimeout(this.#poll);
    this.#fill(run);
    try {
      for (;;) {
        const ahead = this.#ahead(run);
        const free = run.concurrency - this.#running;
        if (this.#closed || (free === 0 && this.#buffer.length >= Math.ceil(ahead / 2))) break;
        const wanted = free + ahead - this.#buffer.length;
        if (wanted <= 0 || !(await this.#fetchGroup(run, wanted))) break;
        this.#fill(run);
      }
    } catch (err) {
      run.log.error({ err }, 'could not fetch job items');
    }
    if (!this.#closed && this.#running < run.concurrency)
      this.#poll = setTimeout(() => void this.#pump(), IDLE_POLL_MS);
  }

  /** Fetches and claims up to `wanted` items into the buffer; false when the queue had none. */
  async #fetchGroup(run: QueueWorker, wanted: number): Promise<boolean> {
    const jobs = await this.#boss.fetch<ItemMessage>(QUEUE, { batchSize: wanted });
    if (!jobs || jobs.length === 0) return false;
    for (const job of jobs) this.#inflight.set(keyOf(job.data), job);
    let claimed: Awaited<ReturnType<JobStore['claimMany']>>;
    try {
      // 'running' too: the runner that had it died (pg-boss only hands it out again once its heartbeat lapsed).
      claimed = await run.store.claimMany(
        jobs.map((j) => j.data),
        ['pending', 'running'],
      );
    } catch (err) {
      await Promise.all(jobs.map((job) => this.#fail(run, job.data, err as Error)));
      throw err;
    }
    const { items, unreadable } = claimed;
    await Promise.all(unreadable.map(({ ref, error }) => this.#fail(run, ref, error)));
    // Done already, or its job cancelled or expired: nothing to run.
    const taken = new Set([...items, ...unreadable.map((u) => u.ref)].map(keyOf));
    const idle = jobs.filter((j) => !taken.has(keyOf(j.data)));
    if (idle.length > 0) await this.#complete(idle);
    this.#buffer.push(...items);
    return true;
  }

  /** Settles items that need no run; if that fails, their heartbeat lapses and a later claim finds nothing to do either. */
  async #complete(jobs: Job<ItemMessage>[]): Promise<void> {
    for (const job of jobs) this.#inflight.delete(keyOf(job.data));
    await this.#boss.complete(
      QUEUE,
      jobs.map((j) => ({ id: j.id, retryCount: j.retryCount })),
    );
  }

  /** A failure below the operation: pg-boss runs the item again after its retry delay, or gives it up. */
  async #fail(run: QueueWorker, item: ItemKey, err: Error): Promise<void> {
    const job = this.#inflight.get(keyOf(item));
    this.#inflight.delete(keyOf(item));
    if (!job) return;
    await this.#boss
      .fail(QUEUE, { id: job.id, retryCount: job.retryCount }, { message: err.message })
      .then(() => undefined)
      .catch((failed) =>
        run.log.error(
          { err: failed, item },
          'could not settle a job item in the queue; its heartbeat lapses and it runs again',
        ),
      );
  }

  #start(run: QueueWorker, item: ClaimedItem): void {
    this.#running++;
    let slot = true;
    const free = () => {
      if (!slot) return;
      slot = false;
      this.#running--;
      this.#fill(run);
      void this.#pump();
    };
    const began = performance.now();
    const task: Promise<void> = run.executor
      .execute(item)
      .then(async (executed) => {
        // The slot is free once the operation ended; the result joins the next batch written.
        free();
        if (!executed.stopped) {
          const ms = performance.now() - began;
          this.#meanMs = this.#meanMs === undefined ? ms : this.#meanMs * 0.8 + ms * 0.2;
          await executed.recorded;
          this.#inflight.delete(keyOf(item));
          return;
        }
        await run.store.release(item.jobId, item.index);
        throw new Error('worker stopped before the item finished');
      })
      .catch((err: Error) => {
        free();
        return this.#fail(run, item, err);
      })
      .finally(() => this.#tasks.delete(task));
    this.#tasks.add(task);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#poll);
    this.#run?.executor.stopAll();
    await Promise.allSettled([...this.#tasks]);
    await this.#run?.executor.drain();
    const run = this.#run;
    if (run) {
      for (const item of this.#buffer.splice(0)) {
        await run.store.release(item.jobId, item.index).catch(() => undefined);
        await this.#fail(run, item, new Error('worker stopped before the item started'));
      }
    }
    clearInterval(this.#heartbeat);
    if (this.#started) await this.#boss.stop({ graceful: true, timeout: 10_000 });
  }
}
