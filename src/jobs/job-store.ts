import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Meter } from '../billing/index.ts';
import { newestPage, type Tables } from '../store/index.ts';
import { deleteWebhookEvents, type WebhookTarget } from '../webhooks/index.ts';
import { type Claimed, claimItems, claimPending, claimPendingOf } from './claim.ts';
import { emit, finalState } from './events.ts';
import { type ItemRecord, type RecordedBatch, type RecordOptions, recordItems } from './record.ts';
import {
  ACTIVE_STATUSES,
  type ClaimedItem,
  type EnqueueItems,
  type ItemOutcome,
  type ItemRef,
  type JobPage,
  type JobRef,
  type JobStatus,
  type JobSummary,
  type JobType,
} from './types.ts';

type JobRow = Tables['jobs'];

function toSummary(row: JobRow): JobSummary {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.type as JobType,
    status: row.status as JobStatus,
    total: row.total,
    completed: row.completed,
    costMicros: Number(row.cost_micros),
    error: row.error,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/** A job to store: whose, of which type, its inputs, and how long it lives. */
export interface NewJob {
  userId: string;
  type: JobType;
  inputs: unknown[];
  keys?: string[];
  maxItems?: number;
  webhook?: WebhookTarget;
  ttlMs: number;
}

export type CancelOutcome =
  | { kind: 'cancelled'; job: JobSummary }
  | { kind: 'finished'; job: JobSummary }
  | { kind: 'missing' };

/**
 * Jobs and their items in the service's database (SQLite or Postgres, the same code). Every
 * state change of an item is one conditional statement, so a result is recorded at most once
 * however many runners race for it, and its charges are written in the same transaction.
 */
export class JobStore {
  readonly #db: Kysely<Tables>;

  constructor(db: Kysely<Tables>) {
    this.#db = db;
  }

  /**
   * Stores a job and its items; `enqueue` runs in the same transaction so no job exists unqueued.
   * `keys` deduplicate items the job discovers later against these; `maxItems` bounds how many
   * it may ever hold.
   */
  create(opts: NewJob, enqueue: EnqueueItems): Promise<JobSummary> {
    return this.#db.transaction().execute((trx) => this.insert(trx, opts, enqueue));
  }

  /** `create` inside the caller's transaction (a monitor's tick claims its slot and stores its check together). */
  async insert(trx: Transaction<Tables>, opts: NewJob, enqueue: EnqueueItems): Promise<JobSummary> {
    const now = Date.now();
    const row: JobRow = {
      id: randomUUID(),
      user_id: opts.userId,
      type: opts.type,
      status: 'pending',
      total: opts.inputs.length,
      completed: 0,
      cost_micros: 0,
      error: null,
      created_at: now,
      updated_at: now,
      expires_at: now + opts.ttlMs,
      max_items: opts.maxItems ?? null,
      webhook: opts.webhook ? JSON.stringify(opts.webhook) : null,
    };
    await trx.insertInto('jobs').values(row).execute();
    await trx
      .insertInto('job_items')
      .values(
        opts.inputs.map((input, idx) => ({
          job_id: row.id,
          idx,
          state: 'pending',
          input: JSON.stringify(input),
          result: null,
          cost_micros: 0,
          attempts: 0,
          started_at: null,
          finished_at: null,
          item_key: opts.keys?.[idx] ?? null,
        })),
      )
      .execute();
    await enqueue(trx, {
      id: row.id,
      userId: opts.userId,
      type: opts.type,
      from: 0,
      count: opts.inputs.length,
    });
    return toSummary(row);
  }

  /** A user's job, unless it has expired (an expired job is gone even before the sweep deletes it). */
  async get(userId: string, id: string, now = Date.now()): Promise<JobSummary | undefined> {
    const row = await this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? toSummary(row) : undefined;
  }

  async page(
    userId: string,
    id: string,
    offset: number,
    limit: number,
  ): Promise<JobPage | undefined> {
    const job = await this.get(userId, id);
    if (!job) return undefined;
    // Bounds past the job are an empty page here: Postgres refuses them as out of range for the integer column.
    if (offset >= job.total) return { job, data: [] };
    const rows = await this.#db
      .selectFrom('job_items')
      .select(['idx', 'result'])
      .where('job_id', '=', id)
      .where('idx', '>=', offset)
      .where('idx', '<', Math.min(offset + limit, job.total))
      .orderBy('idx')
      .execute();
    return { job, data: rows.map((r) => (r.result === null ? null : JSON.parse(r.result))) };
  }

  async list(
    userId: string,
    opts: { page: number; limit: number; type?: JobType },
  ): Promise<{ jobs: JobSummary[]; total: number }> {
    let q = this.#db
      .selectFrom('jobs')
      .where('user_id', '=', userId)
      .where('expires_at', '>', Date.now());
    if (opts.type) q = q.where('type', '=', opts.type);
    const { n } = await q
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await newestPage(q.selectAll(), ['created_at', 'id'], opts).execute();
    return { jobs: rows.map(toSummary), total: Number(n) };
  }

  async cancel(userId: string, id: string): Promise<CancelOutcome> {
    const now = Date.now();
    const cancelled = await this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('jobs')
        .set({ status: 'cancelled', updated_at: now })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .where('status', 'in', ACTIVE_STATUSES)
        .returningAll()
        .executeTakeFirst();
      if (row) await emit(trx, row, 'cancelled', finalState(row), now);
      return row !== undefined;
    });
    const job = await this.get(userId, id, now);
    if (!job) return { kind: 'missing' };
    return cancelled ? { kind: 'cancelled', job } : { kind: 'finished', job };
  }

  /** Whether the job's items may still run (not cancelled, failed, finished, expired or deleted). */
  async isActive(id: string): Promise<boolean> {
    return (await this.activeOf([id])).has(id);
  }

  /** Items of active jobs waiting to run and running: the queue depth operators watch. */
  async itemCounts(): Promise<{ pending: number; running: number }> {
    const rows = await this.#db
      .selectFrom('job_items as i')
      .innerJoin('jobs as j', 'j.id', 'i.job_id')
      .select(['i.state', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('i.state', 'in', ['pending', 'running'])
      .where('j.status', 'in', ACTIVE_STATUSES)
      .where('j.expires_at', '>', Date.now())
      .groupBy('i.state')
      .execute();
    const count = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
    return { pending: count('pending'), running: count('running') };
  }

  /** The next item waiting to run, oldest job first. */
  async nextPending(): Promise<ItemRef | undefined> {
    const row = await this.#db
      .selectFrom('job_items as i')
      .innerJoin('jobs as j', 'j.id', 'i.job_id')
      .select(['i.job_id', 'i.idx', 'j.user_id', 'j.type'])
      .where('i.state', '=', 'pending')
      .where('j.status', 'in', ACTIVE_STATUSES)
      .where('j.expires_at', '>', Date.now())
      .orderBy('j.created_at')
      .orderBy('i.job_id')
      .orderBy('i.idx')
      .limit(1)
      .executeTakeFirst();
    return row
      ? { jobId: row.job_id, index: row.idx, userId: row.user_id, type: row.type as JobType }
      : undefined;
  }

  /**
   * Marks an item running if it is in one of `from` and its job is still active. Returns undefined
   * when someone else has it, it is done, or its job was cancelled or expired; throws when its
   * stored input cannot be read.
   */
  async claim(ref: ItemRef, from: string[]): Promise<ClaimedItem | undefined> {
    const { items, unreadable } = await this.claimMany([ref], from);
    if (unreadable[0]) throw unreadable[0].error;
    return items[0];
  }

  /** `claim` for many items in one statement. */
  claimMany(refs: ItemRef[], from: string[]): Promise<Claimed> {
    return claimItems(this.#db, refs, from);
  }

  /**
   * Claims up to `limit` pending items of active jobs, oldest job first, of users other than
   * `exceptUsers` (the embedded runner's queue; those users have items waiting there already). `current`, the job the runner claimed from last, is tried first: while nothing older
   * can have pending items (the runner forgets it when an item goes back in line or another job
   * gains items), the oldest job with pending items is still that one until it has none.
   */
  async claimPending(
    limit: number,
    current?: JobRef,
    exceptUsers: string[] = [],
  ): Promise<Claimed> {
    if (current) {
      const claimed = await claimPendingOf(this.#db, current, limit);
      if (claimed.items.length + claimed.unreadable.length > 0) return claimed;
    }
    return claimPending(this.#db, limit, exceptUsers);
  }

  /** Puts a running item back in line without counting the attempt (a graceful stop). */
  async release(jobId: string, index: number): Promise<void> {
    await this.#db
      .updateTable('job_items')
      .set((eb) => ({ state: 'pending', attempts: eb('attempts', '-', 1), started_at: null }))
      .where('job_id', '=', jobId)
      .where('idx', '=', index)
      .where('state', '=', 'running')
      .execute();
  }

  /** After a crash of the only runner (embedded mode), what was running runs again. */
  async requeueRunning(): Promise<number> {
    const result = await this.#db
      .updateTable('job_items')
      .set({ state: 'pending', started_at: null })
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Writes an item's result once, with its charges, the items it found and its webhook events (see
   * `recordItems`). False (and nothing written, nothing charged) when the item already has a
   * result or the job is no longer active.
   */
  async record(
    jobId: string,
    index: number,
    outcome: ItemOutcome,
    meter: Meter,
    enqueue?: EnqueueItems,
  ): Promise<boolean> {
    const { recorded } = await this.recordMany([{ jobId, index, outcome, meter }], { enqueue });
    return recorded.size > 0;
  }

  /** Writes a batch of results in one transaction (see `recordItems`). */
  recordMany(records: ItemRecord[], opts: RecordOptions = {}): Promise<RecordedBatch> {
    return recordItems(this.#db, records, opts);
  }

  /** Those of `ids` whose items may still run: one statement for every job a process is running items of. */
  async activeOf(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom('jobs')
      .select('id')
      .where('id', 'in', ids)
      .where('status', 'in', ACTIVE_STATUSES)
      .where('expires_at', '>', Date.now())
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** The job could not run at all (for example no process here knows its type). */
  async fail(jobId: string, error: string): Promise<void> {
    const now = Date.now();
    await this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('jobs')
        .set({ status: 'failed', error, updated_at: now })
        .where('id', '=', jobId)
        .where('status', 'in', ACTIVE_STATUSES)
        .returningAll()
        .executeTakeFirst();
      if (row) await emit(trx, row, 'failed', finalState(row), now);
    });
  }

  /** Deletes expired jobs and their items; the ledger keeps what was charged. */
  async sweep(now = Date.now()): Promise<number> {
    return this.#db.transaction().execute(async (trx) => {
      const expired = trx.selectFrom('jobs').select('id').where('expires_at', '<=', now);
      await trx.deleteFrom('job_items').where('job_id', 'in', expired).execute();
      await deleteWebhookEvents(trx, expired);
      const result = await trx.deleteFrom('jobs').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
