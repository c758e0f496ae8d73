import { type Kysely, sql, type Transaction } from 'kysely';
import type { Meter } from '../billing/index.ts';
import { countCharges } from '../metrics/index.ts';
import { type LedgerEntry, LedgerStore, type Tables } from '../store/index.ts';
import { itemKeys } from './claim.ts';
import { emit, finalState } from './events.ts';
import {
  ACTIVE_STATUSES,
  type EnqueueItems,
  type ItemKey,
  type ItemOutcome,
  type JobType,
  keyOf,
  type NextItem,
} from './types.ts';

/** One item's result waiting to be written, with the meter holding its charges. */
export interface ItemRecord extends ItemKey {
  outcome: ItemOutcome;
  meter: Meter;
}

export interface RecordOptions {
  /** Queues the items a result adds to its job, in the same transaction. */
  enqueue?: EnqueueItems;
  /** Runs last in the transaction (the queue marks the batch's items done there), so it commits with the results. */
  settle?: (trx: Transaction<Tables>) => Promise<void>;
}

/** What a committed batch wrote. */
export interface RecordedBatch {
  /** `jobId:index` of the items whose result was written by this batch. */
  recorded: Set<string>;
  /** Webhook events were written. */
  events: boolean;
  /** Items were added to a job. */
  added: boolean;
}

/** Thrown inside a transaction to undo it when jobs turn out to be no longer active. */
class NotRecorded extends Error {
  readonly jobIds: string[];
  constructor(jobIds: string[]) {
    super('jobs no longer active');
    this.jobIds = jobIds;
  }
}

/** Rows of discovered items checked or inserted per statement (well under either backend's parameter limit). */
const KEY_CHUNK = 500;

/**
 * Writes the results of a batch of items in one transaction: each item's result once (never over
 * one already there), its charges, the items it found (new keys only, never past the job's
 * `maxItems`), its webhook events, and each job's counters and status, which moves to completed
 * with its last item. A result whose job is no longer active writes and charges nothing. The
 * statements are per batch, not per item: one for the items, one per job, one for the charges.
 */
export async function recordItems(
  db: Kysely<Tables>,
  records: ItemRecord[],
  opts: RecordOptions = {},
): Promise<RecordedBatch> {
  const inactive = new Set<string>();
  for (;;) {
    try {
      const batch = records.filter((r) => !inactive.has(r.jobId));
      const { written, charged } = await db
        .transaction()
        .execute((trx) => writeBatch(trx, batch, opts));
      countCharges(charged);
      return written;
    } catch (err) {
      // A cancel committed between our item and job statements (Postgres): it wins, and the rest are written again.
      if (!(err instanceof NotRecorded)) throw err;
      for (const id of err.jobIds) inactive.add(id);
    }
  }
}

async function writeBatch(
  trx: Transaction<Tables>,
  records: ItemRecord[],
  opts: RecordOptions,
): Promise<{ written: RecordedBatch; charged: LedgerEntry[] }> {
  const now = Date.now();
  const written: RecordedBatch = { recorded: new Set(), events: false, added: false };
  const charged: LedgerEntry[] = [];
  if (records.length > 0) {
    const when = (value: (r: ItemRecord) => unknown) =>
      sql`case ${sql.join(
        records.map((r) => sql`when job_id = ${r.jobId} and idx = ${r.index} then ${value(r)}`),
        sql` `,
      )} end`;
    const { rows } = await sql<{ job_id: string; idx: number }>`
      update job_items set state = 'done', finished_at = ${now},
        result = ${when((r) => JSON.stringify(r.outcome.result))},
        cost_micros = ${when((r) => sql`cast(${r.meter.totalMicros} as bigint)`)}
      where ${itemKeys(records)} and state != 'done'
        and exists (select 1 from jobs j where j.id = job_items.job_id and j.status in (${sql.join(ACTIVE_STATUSES)}))
      returning job_id, idx`.execute(trx);
    for (const row of rows) written.recorded.add(keyOf({ jobId: row.job_id, index: row.idx }));
    const byJob = new Map<string, ItemRecord[]>();
    for (const r of records) {
      if (!written.recorded.has(keyOf(r))) continue;
      byJob.set(r.jobId, [...(byJob.get(r.jobId) ?? []), r]);
    }
    const inactive: string[] = [];
    for (const [jobId, done] of byJob) {
      done.sort((a, b) => a.index - b.index);
      let added = 0;
      for (const r of done)
        if (r.outcome.next?.length)
          added += await addItems(trx, jobId, r.outcome.next, added, now, opts.enqueue);
      const costMicros = done.reduce((sum, r) => sum + r.meter.totalMicros, 0);
      // The job row after the items, so its lock (every item of the job contends for it) is held
      // for as little of the transaction as the charges and events allow. On Postgres a concurrent
      // cancel either commits first, and this finds the job inactive and undoes the lot, or waits
      // for these results to count.
      const job = await trx
        .updateTable('jobs')
        .set((eb) => ({
          completed: eb('completed', '+', done.length),
          total: eb('total', '+', added),
          cost_micros: eb('cost_micros', '+', costMicros),
          status: sql<string>`case when completed + ${done.length} >= total + ${added} then 'completed' else status end`,
          updated_at: now,
        }))
        .where('id', '=', jobId)
        .where('status', 'in', ACTIVE_STATUSES)
        .returningAll()
        .executeTakeFirst();
      if (!job) {
        inactive.push(jobId);
        continue;
      }
      written.added ||= added > 0;
      for (const r of done)
        written.events =
          (await emit(trx, job, 'item', { index: r.index, result: r.outcome.result }, now)) ||
          written.events;
      if (job.status === 'completed')
        written.events =
          (await emit(trx, job, 'completed', finalState(job), now)) || written.events;
      for (const r of done) charged.push(...r.meter.entries);
    }
    if (inactive.length > 0) throw new NotRecorded(inactive);
    await new LedgerStore(trx).record(charged);
  }
  await opts.settle?.(trx);
  return { written, charged };
}

/**
 * Appends the items a running item found, after the job's last one, skipping keys the job has
 * seen and stopping at its `maxItems`; `before` items were added by this transaction already (the
 * job's total counts them only once its row is updated). The job row is locked first (on Postgres)
 * so that two batches recording at once cannot both take the last free places.
 */
async function addItems(
  trx: Transaction<Tables>,
  jobId: string,
  next: NextItem[],
  before: number,
  now: number,
  enqueue?: EnqueueItems,
): Promise<number> {
  const job = await trx
    .updateTable('jobs')
    .set({ updated_at: now })
    .where('id', '=', jobId)
    .where('status', 'in', ACTIVE_STATUSES)
    .returning(['total', 'max_items', 'user_id', 'type'])
    .executeTakeFirst();
  if (!job) throw new NotRecorded([jobId]);
  const total = job.total + before;
  const room = (job.max_items ?? total) - total;
  if (room <= 0) return 0;
  const fresh: NextItem[] = [];
  const seen = new Set<string>();
  for (let at = 0; at < next.length && fresh.length < room; at += KEY_CHUNK) {
    const chunk = next.slice(at, at + KEY_CHUNK).filter((n) => !seen.has(n.key) && seen.add(n.key));
    if (chunk.length === 0) continue;
    const known = await trx
      .selectFrom('job_items')
      .select('item_key')
      .where('job_id', '=', jobId)
      .where(
        'item_key',
        'in',
        chunk.map((n) => n.key),
      )
      .execute();
    const taken = new Set(known.map((k) => k.item_key));
    for (const n of chunk) if (!taken.has(n.key) && fresh.length < room) fresh.push(n);
  }
  for (let at = 0; at < fresh.length; at += KEY_CHUNK) {
    await trx
      .insertInto('job_items')
      .values(
        fresh.slice(at, at + KEY_CHUNK).map((n, i) => ({
          job_id: jobId,
          idx: total + at + i,
          state: 'pending',
          input: JSON.stringify(n.input),
          result: null,
          cost_micros: 0,
          attempts: 0,
          started_at: null,
          finished_at: null,
          item_key: n.key,
        })),
      )
      .execute();
  }
  if (fresh.length > 0 && enqueue)
    await enqueue(trx, {
      id: jobId,
      userId: job.user_id,
      type: job.type as JobType,
      from: total,
      count: fresh.length,
    });
  return fresh.length;
}
