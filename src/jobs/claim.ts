import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Tables } from '../store/index.ts';
import { emit } from './events.ts';
import {
  ACTIVE_STATUSES,
  type ClaimedItem,
  type ItemKey,
  type ItemRef,
  type JobRef,
  type JobType,
} from './types.ts';

/** Items claimed in one statement, and those whose stored input could not be read (a failure below their operation). */
export interface Claimed {
  items: ClaimedItem[];
  unreadable: Array<{ ref: ItemRef; error: Error }>;
}

interface ClaimedRow {
  job_id: string;
  idx: number;
  input: string;
  attempts: number;
  user_id: string;
  type: string;
  job_status: string;
  created_at: number | string;
}

/**
 * `(job_id, idx) in (values ...)` for these items: SQLite takes a list of row values only as a
 * subquery, and Postgres types the values' columns from the casts.
 */
export function itemKeys(refs: ReadonlyArray<ItemKey>): RawBuilder<unknown> {
  return sql`(job_id, idx) in (values ${sql.join(refs.map((r) => sql`(cast(${r.jobId} as text), cast(${r.index} as integer))`))})`;
}

/**
 * Marks running, in one statement, those of `refs` that are in one of the states `from` and whose
 * job is still active; items someone else has, that are done, or whose job was cancelled or
 * expired are left out. A job whose first items these are moves to processing (once, with its
 * `started` event): the only extra statements, once per job.
 */
export async function claimItems(
  db: Kysely<Tables>,
  refs: ItemRef[],
  from: string[],
): Promise<Claimed> {
  if (refs.length === 0) return { items: [], unreadable: [] };
  return claimWhere(db, sql`${itemKeys(refs)} and state in (${sql.join(from)})`);
}

/** A job as a claim of its items needs it. */
interface ClaimedJob {
  id: string;
  user_id: string;
  type: string;
  status: string;
  created_at: number | string;
}

/**
 * Claims up to `limit` pending items of the oldest active job that has any, lowest index first,
 * leaving out the jobs of `exceptUsers` (the embedded runner's queue). Two short statements on the item table's state index, rather
 * than one that would sort every pending item of every job on each claim.
 */
export async function claimPending(
  db: Kysely<Tables>,
  limit: number,
  exceptUsers: string[] = [],
): Promise<Claimed> {
  const now = Date.now();
  const job = await db
    .selectFrom('jobs as j')
    .select(['j.id', 'j.user_id', 'j.type', 'j.status', 'j.created_at'])
    .where('j.status', 'in', ACTIVE_STATUSES)
    .$if(exceptUsers.length > 0, (q) => q.where('j.user_id', 'not in', exceptUsers))
    .where('j.expires_at', '>', now)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('job_items as i')
          .select('i.idx')
          .whereRef('i.job_id', '=', 'j.id')
          .where('i.state', '=', 'pending'),
      ),
    )
    .orderBy('j.created_at')
    .orderBy('j.id')
    .limit(1)
    .executeTakeFirst();
  return job ? claimGroup(db, job, limit, now) : { items: [], unreadable: [] };
}

/**
 * Claims up to `limit` pending items of one job, lowest index first, if it is still active: the
 * runner's next group while it works through the job it claimed from last, without looking for the
 * oldest active job again (one statement of the two a claim took). The job has begun already.
 */
export function claimPendingOf(db: Kysely<Tables>, job: JobRef, limit: number): Promise<Claimed> {
  const begun = { id: job.jobId, user_id: job.userId, type: job.type, status: 'processing' };
  return claimGroup(db, { ...begun, created_at: 0 }, limit, Date.now());
}

/** Marks up to `limit` pending items of `job` running, lowest index first, if the job is still active. */
async function claimGroup(
  db: Kysely<Tables>,
  job: ClaimedJob,
  limit: number,
  now: number,
): Promise<Claimed> {
  const next = db
    .selectFrom('job_items')
    .select('idx')
    .where('job_id', '=', job.id)
    .where('state', '=', 'pending')
    .orderBy('idx')
    .limit(limit);
  const rows = await db
    .updateTable('job_items')
    .set((eb) => ({ state: 'running', attempts: eb('attempts', '+', 1), started_at: now }))
    .where('job_id', '=', job.id)
    .where('state', '=', 'pending')
    .where('idx', 'in', next)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('jobs')
          .select('id')
          .where('id', '=', job.id)
          .where('status', 'in', ACTIVE_STATUSES)
          .where('expires_at', '>', now),
      ),
    )
    .returning(['job_id', 'idx', 'input', 'attempts'])
    .execute();
  return claimed(
    db,
    rows.map((r) => ({
      ...r,
      user_id: job.user_id,
      type: job.type,
      job_status: job.status,
      created_at: job.created_at,
    })),
    now,
  );
}

async function claimWhere(db: Kysely<Tables>, which: RawBuilder<unknown>): Promise<Claimed> {
  const now = Date.now();
  const job = (column: string) =>
    sql.raw(`(select j.${column} from jobs j where j.id = job_items.job_id)`);
  const { rows } = await sql<ClaimedRow>`
    update job_items set state = 'running', attempts = attempts + 1, started_at = ${now}
    where ${which}
      and exists (select 1 from jobs j where j.id = job_items.job_id and j.status in (${sql.join(ACTIVE_STATUSES)}) and j.expires_at > ${now})
    returning job_id, idx, input, attempts, ${job('user_id')} as user_id, ${job('type')} as type,
      ${job('status')} as job_status, ${job('created_at')} as created_at`.execute(db);
  return claimed(db, rows, now);
}

/** Reads the claimed rows' inputs, and moves jobs whose first items these are to processing. */
async function claimed(db: Kysely<Tables>, rows: ClaimedRow[], now: number): Promise<Claimed> {
  // The order of returned rows is not the order asked for: oldest job first, then by index.
  rows.sort(
    (a, b) =>
      Number(a.created_at) - Number(b.created_at) ||
      a.job_id.localeCompare(b.job_id) ||
      a.idx - b.idx,
  );
  const out: Claimed = { items: [], unreadable: [] };
  for (const row of rows) {
    const ref: ItemRef = {
      jobId: row.job_id,
      index: row.idx,
      userId: row.user_id,
      type: row.type as JobType,
    };
    try {
      out.items.push({ ...ref, input: JSON.parse(row.input), attempts: row.attempts });
    } catch (err) {
      out.unreadable.push({ ref, error: err instanceof Error ? err : new Error(String(err)) });
    }
  }
  const starting = new Set(rows.filter((r) => r.job_status === 'pending').map((r) => r.job_id));
  for (const jobId of starting) await markStarted(db, jobId, now);
  return out;
}

/**
 * Moves a pending job to processing. Only ever moves pending forward, so it needs no transaction
 * with the claim; the started event does need one with the move, so that exactly one claim reports it.
 */
async function markStarted(db: Kysely<Tables>, jobId: string, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const job = await trx
      .updateTable('jobs')
      .set({ status: 'processing', updated_at: now })
      .where('id', '=', jobId)
      .where('status', '=', 'pending')
      .returning(['id', 'user_id', 'type', 'webhook', 'total'])
      .executeTakeFirst();
    if (job) await emit(trx, job, 'started', { status: 'processing', total: job.total }, now);
  });
}
