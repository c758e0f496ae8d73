import type { FastifyBaseLogger } from 'fastify';
import type { ItemExecutor } from './executor.ts';
import type { JobQueue } from './queue.ts';
import type { JobStore } from './store.ts';
import { coalesced } from './coalesce.ts';

/** Wait before trying again after the store refused a write (another process holding SQLite's lock). */
const RETRY_MS = 1000;

/**
 * The embedded engine: the job_items table is the queue and this process its only consumer, so a
 * dispatcher claims pending items one at a time and runs up to `concurrency` of them. Items that
 * were running when the process died are put back in line at start-up.
 */
export class EmbeddedQueue implements JobQueue {
  readonly engine = 'embedded' as const;
  #run?: { executor: ItemExecutor; store: JobStore; concurrency: number; log: FastifyBaseLogger };
  #active = 0;
  /** Claims pending items until the concurrency is used up; triggers during a pass coalesce. */
  readonly #pump = coalesced(() => this.#dispatch());
  #closed = false;
  #retry?: NodeJS.Timeout;
  readonly #running = new Set<Promise<void>>();

  async start(): Promise<void> {}

  /** The item table is the queue: stored is queued. */
  readonly enqueue = async (): Promise<void> => {};

  created(): void {
    void this.#pump();
  }

  async work(executor: ItemExecutor, store: JobStore, concurrency: number, log: FastifyBaseLogger): Promise<void> {
    const requeued = await store.requeueRunning();
    if (requeued > 0) log.info({ requeued }, 'job items interrupted by the last stop run again');
    this.#run = { executor, store, concurrency, log };
    void this.#pump();
  }

  async #dispatch(): Promise<void> {
    const run = this.#run;
    if (!run || this.#closed) return;
    try {
      while (!this.#closed && this.#active < run.concurrency) {
        const next = await run.store.nextPending();
        if (!next) break;
        const item = await run.store.claim(next, ['pending']);
        if (!item) continue;
        this.#active++;
        const task: Promise<void> = run.executor
          .execute(item)
          .then(async (done) => {
            if (!done) await run.store.release(item.jobId, item.index);
          })
          .catch(async (err) => {
            run.log.error({ err, jobId: item.jobId, index: item.index }, 'job item could not be recorded; it will run again');
            await run.store.release(item.jobId, item.index).catch(() => undefined);
            this.#schedule();
          })
          .finally(() => {
            this.#active--;
            this.#running.delete(task);
            void this.#pump();
          });
        this.#running.add(task);
      }
    } catch (err) {
      run.log.error({ err }, 'job dispatcher could not read the store');
      this.#schedule();
    }
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
    this.#run?.executor.stopAll();
    await Promise.allSettled([...this.#running]);
  }
}
