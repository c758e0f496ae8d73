import { FairLane, FairQueue } from '../fair/index.ts';
import { coalesced } from './coalesce.ts';
import { givenUpReason, type JobQueue, QUEUE_RETRY_LIMIT, type QueueWorker } from './queue.ts';
import { type ClaimedItem, type ItemRef, type JobRef, keyOf } from './types.ts';

/**
 * Wait before trying again after a failure below an item's operation (another process holding
 * SQLite's lock, an unreadable input): the item stays claimed meanwhile, so nothing spins on it.
 */
const RETRY_MS = 1000;

/**
 * A claim takes up to this many items per slot. Each claim is a write transaction of its own (an
 * item's attempt must be on disk before it runs, for kill -9 recovery), about 0.3 ms; claiming
 * one item per slot, a 200-item job at concurrency 8 paid 26 of them, a third of its database
 * time. Items taken ahead wait here for a slot, and an item that goes back in line waits behind
 * them: at most this many times the concurrency, less one.
 */
const CLAIM_PER_SLOT = 4;

interface Running extends QueueWorker {
  /** The slots, shared between users in turn. */
  slots: FairLane;
}

/**
 * The embedded queue: the job_items table is the queue and this process its only consumer, so a
 * dispatcher claims pending items in groups and runs up to `concurrency` of them; the rest of a
 * group waits here for a slot (a cancel reaches them through the executor, in this same process).
 * Users take turns: claimed items wait by user (`FairQueue`) and start users in turn, each user
 * holding at most its share of the slots (`FairLane`), and a user with pending items and none
 * waiting here has a group claimed as soon as a job is created or a user's items run out, so one
 * user's backlog delays another's first item by about one item's time.
 * Items that were running when the process died are put back in line at start-up. An item whose
 * handling keeps failing below its operation is retried `QUEUE_RETRY_LIMIT` times, then recorded as
 * failed, as pg-boss's dead-letter path does on Postgres, so its job still ends.
 */
export class EmbeddedQueue implements JobQueue {
  readonly #perKey: number | undefined;
  #run?: Running;
  /** Claimed items waiting for a free slot, by user. */
  readonly #buffer = new FairQueue<ClaimedItem>();
  /** Whether another user may have pending items that none here wait for: claim before starting more. */
  #fresh = false;
  /** Claims pending items until the concurrency is used up; triggers during a pass coalesce. */
  readonly #pump = coalesced(() => this.#dispatch());
  #closed = false;
  #retry?: NodeJS.Timeout;
  readonly #tasks = new Set<Promise<void>>();
  /** Failures below the operation so far, by item; this process is the only runner, so memory is enough. */
  readonly #failures = new Map<string, number>();
  readonly #retries = new Set<NodeJS.Timeout>();
  /**
   * The job the last group came from, claimed from again first. Forgotten whenever another job
   * gains pending items or an item goes back in line, so oldest-job-first holds.
   */
  #current?: JobRef;

  /** `perKey`: slots one user's items may hold at once (all of them unless given). */
  constructor(perKey?: number) {
    this.#perKey = perKey;
  }

  async start(): Promise<void> {}

  /** The item table is the queue: stored is queued. */
  readonly enqueue = async (_trx: unknown, job: { id: string }): Promise<void> => {
    if (job.id !== this.#current?.jobId) this.#current = undefined;
    this.#fresh = true;
  };

  /** Recording an item's result is all that ends it. */
  readonly settle = async (): Promise<void> => {};

  created(): void {
    void this.#pump();
  }

  async work(worker: QueueWorker): Promise<void> {
    const requeued = await worker.store.requeueRunning();
    if (requeued > 0)
      worker.log.info({ requeued }, 'job items interrupted by the last stop run again');
    const { concurrency } = worker;
    const slots = new FairLane({ capacity: concurrency, perKey: this.#perKey ?? concurrency });
    this.#run = { ...worker, slots };
    void this.#pump();
  }

  async #dispatch(): Promise<void> {
    const run = this.#run;
    if (!run || this.#closed) return;
    try {
      while (!this.#closed && run.slots.used < run.concurrency) {
        const startable = (user: string) => run.slots.free(user);
        if (this.#fresh || !this.#buffer.keys().some(startable)) {
          this.#fresh = false;
          // A whole group at once, so a claim is paid per group rather than per freed slot; from
          // users with none waiting here, so each user waiting for a slot has items in line.
          const waiting = new Set([...this.#buffer.keys(), ...run.slots.saturated()]);
          const { items, unreadable } = await run.store.claimPending(
            CLAIM_PER_SLOT * run.concurrency,
            this.#current && !waiting.has(this.#current.userId) ? this.#current : undefined,
            [...waiting],
          );
          const first = items[0] ?? unreadable[0]?.ref;
          this.#current = first && { jobId: first.jobId, userId: first.userId, type: first.type };
          for (const { ref, error } of unreadable) this.#failed(run, ref, error);
          for (const item of items) this.#buffer.push(item.userId, item);
          if (items.length + unreadable.length === 0 && !this.#buffer.keys().some(startable)) break;
        }
        const next = this.#buffer.shift(startable);
        if (next) {
          // The last of a user's items here: it may have more pending, claimed before the next start.
          if (!this.#buffer.keys().includes(next.key)) this.#fresh = true;
          this.#start(run, next.item);
        }
      }
    } catch (err) {
      run.log.error({ err }, 'job dispatcher could not read the store');
      this.#schedule();
    }
  }

  #start(run: Running, item: ClaimedItem): void {
    // Free to this user: the caller took it from the line only if so.
    const release = run.slots.take(item.userId)!;
    let slot = true;
    const free = () => {
      if (!slot) return;
      slot = false;
      release();
      void this.#pump();
    };
    const task: Promise<void> = run.executor
      .execute(item)
      .then(async (executed) => {
        // The slot is free once the operation ended; the result joins the next batch written.
        free();
        if (executed.stopped) await this.#release(run, item);
        else await executed.recorded;
        this.#failures.delete(keyOf(item));
      })
      .catch((err: Error) => {
        free();
        this.#failed(run, item, err);
      })
      .finally(() => this.#tasks.delete(task));
    this.#tasks.add(task);
  }

  /** A failure below the operation: the item, still claimed, runs again after a pause, or is given up. */
  #failed(run: Running, ref: ItemRef, err: Error): void {
    const key = keyOf(ref);
    const attempts = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.set(key, attempts);
    if (this.#closed) return;
    run.log.error(
      { err, jobId: ref.jobId, index: ref.index, attempts },
      'job item could not be run or recorded; it will run again',
    );
    this.#later(
      async () => {
        if (attempts <= QUEUE_RETRY_LIMIT) return this.#release(run, ref);
        await run.executor.giveUp(ref, givenUpReason(attempts, err.message));
        this.#failures.delete(key);
      },
      (again) => this.#failed(run, ref, again),
    );
  }

  /** Puts an item back in line; its job may be older than the one claimed from last. */
  #release(run: Running, ref: ItemRef): Promise<void> {
    this.#current = undefined;
    return run.store.release(ref.jobId, ref.index);
  }

  /** Runs `step` after the retry pause; `onError` if it fails too. */
  #later(step: () => Promise<void>, onError: (err: Error) => void): void {
    const timer = setTimeout(() => {
      this.#retries.delete(timer);
      step().then(
        () => void this.#pump(),
        (err: Error) => onError(err),
      );
    }, RETRY_MS);
    this.#retries.add(timer);
  }

  #schedule(): void {
    if (this.#retry || this.#closed) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#pump();
    }, RETRY_MS);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    for (const timer of this.#retries) clearTimeout(timer);
    this.#run?.executor.stopAll();
    await Promise.allSettled([...this.#tasks]);
    await this.#run?.executor.drain();
    for (let next = this.#buffer.shift(); next; next = this.#buffer.shift())
      await this.#run?.store.release(next.item.jobId, next.item.index).catch(() => undefined);
  }
}
