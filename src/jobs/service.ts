import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Services } from '../ops/index.ts';
import type { Database } from '../store/index.ts';
import { EmbeddedQueue } from './embedded-queue.ts';
import { ItemExecutor } from './executor.ts';
import { PgBossQueue } from './pgboss-queue.ts';
import type { JobQueue } from './queue.ts';
import { JobStore, type CancelOutcome } from './store.ts';
import type { JobPage, JobSummary, JobType } from './types.ts';

/**
 * Async jobs: the store and the queue behind one face, used by routes, `serve` and `worker`. Any
 * number of processes may sweep expired jobs; the deletes are idempotent.
 */
export class Jobs {
  readonly store: JobStore;
  readonly queue: JobQueue;
  readonly #config: Config;
  #sweeper?: NodeJS.Timeout;

  /** Embedded queue on SQLite; pg-boss on the same Postgres when the store is Postgres. */
  constructor(database: Database, config: Config) {
    this.store = new JobStore(database.db);
    this.queue = database.backend === 'postgres' ? new PgBossQueue(database.url!, config.jobHeartbeatSeconds) : new EmbeddedQueue();
    this.#config = config;
  }

  /**
   * Connects the queue and starts the expiry sweep; with `services`, also runs items in this
   * process (`serve` unless WEBDATA_WORKER=false, and `worker`).
   */
  async start(log: FastifyBaseLogger, services?: Services): Promise<void> {
    await this.queue.start(log);
    this.#startSweeper(log);
    if (services) await this.queue.work(new ItemExecutor(this.store, services, log), this.store, this.#config.jobConcurrency, log);
  }

  async create(userId: string, type: JobType, inputs: unknown[]): Promise<JobSummary> {
    const job = await this.store.create({ userId, type, inputs, ttlMs: this.#config.jobTtlSeconds * 1000 }, (trx, queued) =>
      this.queue.enqueue(trx, queued),
    );
    this.queue.created();
    return job;
  }

  page(userId: string, id: string, offset: number, limit: number): Promise<JobPage | undefined> {
    return this.store.page(userId, id, offset, limit);
  }

  list(userId: string, opts: { page: number; limit: number; type?: JobType }): Promise<{ jobs: JobSummary[]; total: number }> {
    return this.store.list(userId, opts);
  }

  cancel(userId: string, id: string): Promise<CancelOutcome> {
    return this.store.cancel(userId, id);
  }

  #startSweeper(log: FastifyBaseLogger): void {
    const sweep = () =>
      this.store.sweep().then(
        (deleted) => deleted > 0 && log.info({ deleted }, 'expired jobs deleted'),
        (err) => log.warn({ err }, 'expired job sweep failed'),
      );
    void sweep();
    this.#sweeper = setInterval(sweep, this.#config.jobSweepSeconds * 1000);
    this.#sweeper.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await this.queue.close();
  }
}
