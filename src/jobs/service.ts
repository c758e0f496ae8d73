import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Config } from '../config.ts';
import type { Services } from '../ops/index.ts';
import type { Database, Tables } from '../store/index.ts';
import {
  jobWebhookEvents,
  WebhookDeliverer,
  type WebhookEventView,
  WebhookSecrets,
  type WebhookTarget,
} from '../webhooks/index.ts';
import { EmbeddedQueue } from './embedded-queue.ts';
import { ItemExecutor } from './executor.ts';
import { type CancelOutcome, JobStore } from './job-store.ts';
import { PgBossQueue } from './pgboss-queue.ts';
import type { JobQueue } from './queue.ts';
import type { JobPage, JobSummary, JobType } from './types.ts';

/** Wait before a failed webhook delivery's second attempt; doubled for each later one. */
const WEBHOOK_BACKOFF_MS = 1000;

export interface CreateOptions {
  /** Keys that items the job discovers are deduplicated against (one per input). */
  keys?: string[];
  /** Most items the job may ever hold. */
  maxItems?: number;
  webhook?: WebhookTarget;
}

/**
 * Async jobs: the store and the queue behind one face, used by routes, `serve` and `worker`. Any
 * number of processes may sweep expired jobs; the deletes are idempotent.
 */
export class Jobs {
  readonly store: JobStore;
  readonly queue: JobQueue;
  readonly webhookSecrets: WebhookSecrets;
  readonly #database: Database;
  readonly #config: Config;
  #sweeper?: NodeJS.Timeout;
  #deliverer?: WebhookDeliverer;
  #executor?: ItemExecutor;

  /** Embedded queue on SQLite; pg-boss on the same Postgres when the store is Postgres. */
  constructor(database: Database, config: Config) {
    this.store = new JobStore(database.db);
    this.queue =
      database.backend === 'postgres'
        ? new PgBossQueue(database.url!, config.jobHeartbeatSeconds)
        : new EmbeddedQueue(config.jobSlotsPerKey);
    this.webhookSecrets = new WebhookSecrets(database.db);
    this.#database = database;
    this.#config = config;
  }

  /**
   * Connects the queue and starts the expiry sweep; with `services`, also runs items and
   * delivers webhooks in this process (`serve` unless WEBDATA_WORKER=false, and `worker`).
   */
  async start(log: FastifyBaseLogger, services?: Services): Promise<void> {
    await this.queue.start(log);
    this.#startSweeper(log);
    if (!services) return;
    const config = this.#config;
    const deliverer = new WebhookDeliverer(this.#database.db, this.webhookSecrets, {
      policy: config.network,
      timeoutMs: config.webhookTimeoutMs,
      maxAttempts: config.webhookMaxAttempts,
      concurrency: config.webhookConcurrency,
      perKey: config.webhookDeliveriesPerKey,
      backoffMs: WEBHOOK_BACKOFF_MS,
      log: log.child({ room: 'webhooks' }),
    });
    this.#deliverer = deliverer;
    deliverer.start();
    const executor = new ItemExecutor(this.store, services, log, {
      enqueue: this.queue.enqueue,
      settle: (trx, items) => this.queue.settle(trx, items),
      recorded: (batch) => {
        if (batch.added) this.queue.created();
        if (batch.events) deliverer.kick();
      },
    });
    this.#executor = executor;
    await this.queue.work({ executor, store: this.store, concurrency: config.jobConcurrency, log });
  }

  /**
   * Stores and queues a job. With a webhook and no signing secret yet, one is made and answered
   * here: the only time the caller sees it (POST /v1/webhooks/secret makes a new one).
   */
  async create(
    userId: string,
    type: JobType,
    inputs: unknown[],
    opts: CreateOptions = {},
  ): Promise<{ job: JobSummary; webhookSecret?: string }> {
    const webhookSecret = opts.webhook ? await this.webhookSecrets.ensure(userId) : undefined;
    const job = await this.store.create(
      { userId, type, inputs, ...opts, ttlMs: this.#config.jobTtlSeconds * 1000 },
      this.queue.enqueue,
    );
    this.queue.created();
    this.#deliverer?.kick();
    return { job, ...(webhookSecret ? { webhookSecret } : {}) };
  }

  /**
   * Stores and queues a job inside the caller's transaction (no webhook of its own); call
   * `created` once it committed, so idle runners look for it at once.
   */
  createIn(
    trx: Transaction<Tables>,
    userId: string,
    type: JobType,
    inputs: unknown[],
    opts: Omit<CreateOptions, 'webhook'> = {},
  ): Promise<JobSummary> {
    return this.store.insert(
      trx,
      { userId, type, inputs, ...opts, ttlMs: this.#config.jobTtlSeconds * 1000 },
      this.queue.enqueue,
    );
  }

  /** Jobs stored by `createIn` committed. */
  created(): void {
    this.queue.created();
  }

  /** Wakes this process's webhook deliverer: events were written outside a job's own records. */
  eventsWritten(): void {
    this.#deliverer?.kick();
  }

  /** The job's webhook events with their delivery attempts, when the job is the user's. */
  async webhookEvents(
    userId: string,
    id: string,
    offset: number,
    limit: number,
  ): Promise<{ job: JobSummary; events: WebhookEventView[]; total: number } | undefined> {
    const job = await this.store.get(userId, id);
    if (!job) return undefined;
    return { job, ...(await jobWebhookEvents(this.#database.db, id, offset, limit)) };
  }

  page(userId: string, id: string, offset: number, limit: number): Promise<JobPage | undefined> {
    return this.store.page(userId, id, offset, limit);
  }

  list(
    userId: string,
    opts: { page: number; limit: number; type?: JobType },
  ): Promise<{ jobs: JobSummary[]; total: number }> {
    return this.store.list(userId, opts);
  }

  async cancel(userId: string, id: string): Promise<CancelOutcome> {
    const outcome = await this.store.cancel(userId, id);
    // Items of the job running here stop at once; elsewhere, at their process's next check.
    if (outcome.kind === 'cancelled') this.#executor?.cancelled(id);
    return outcome;
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
    await this.#deliverer?.close();
  }
}
