import type { Jobs } from '../jobs/index.ts';
import type { Database } from '../store/index.ts';
import { nextTick, type Schedule } from './schedule.ts';
import type { CheckJob } from './types.ts';

/** Monitors claimed per transaction: their checks' jobs commit together. */
const CLAIM_BATCH = 50;

/**
 * Claims the monitors due now and starts their checks, each tick exactly once however many
 * processes run this at the same time: in one transaction per batch, each due row is locked
 * (Postgres: FOR UPDATE SKIP LOCKED, so processes share the due rows rather than queue for them;
 * SQLite runs one writer at a time), its `next_run_at` moved to its next tick, and its check's job
 * and row stored. A crash before the commit leaves the tick due; after it, the job is durable.
 *
 * Why not pg-boss's schedules: they exist on Postgres only (the embedded store is SQLite), they
 * fire at most once a minute per cron (pg-boss checks its crons every 30 s and cron has minute
 * fields), and one schedule per name is shared by all users; monitors need 10 s intervals and
 * per-monitor time zones on both stores. A due-time column claimed by a conditional update
 * works the same on both.
 *
 * A monitor whose last check still runs is not claimed: its tick waits for that check to end,
 * so checks of one monitor never overlap. Answers the checks started.
 */
export async function claimDue(database: Database, jobs: Jobs): Promise<number> {
  let started = 0;
  for (;;) {
    const now = Date.now();
    const claimed = await database.db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('monitors')
        .select(['id', 'user_id', 'job', 'schedule', 'next_run_at'])
        .where('paused', '=', 0)
        .where('next_run_at', '<=', now)
        .where('running_check', 'is', null)
        .orderBy('next_run_at')
        .limit(CLAIM_BATCH);
      if (database.backend === 'postgres') due = due.forUpdate().skipLocked();
      const rows = await due.execute();
      for (const row of rows) {
        const job = JSON.parse(row.job) as CheckJob;
        const check = await jobs.createIn(trx, row.user_id, job.type, job.inputs, {
          ...(job.keys ? { keys: job.keys } : {}),
          ...(job.maxItems ? { maxItems: job.maxItems } : {}),
        });
        const scheduledAt = Number(row.next_run_at);
        const moved = await trx
          .updateTable('monitors')
          .set({
            next_run_at: nextTick(JSON.parse(row.schedule) as Schedule, scheduledAt, now),
            running_check: check.id,
            updated_at: now,
          })
          .where('id', '=', row.id)
          .where('next_run_at', '=', scheduledAt)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1)
          throw new Error(`monitor ${row.id} changed while its tick was claimed`);
        await trx
          .insertInto('monitor_checks')
          .values({
            id: check.id,
            monitor_id: row.id,
            user_id: row.user_id,
            scheduled_at: scheduledAt,
            started_at: now,
            finished_at: null,
            status: 'running',
            pages: null,
            changed: 0,
            cost_micros: 0,
            error: null,
          })
          .execute();
      }
      return rows.length;
    });
    if (claimed > 0) jobs.created();
    started += claimed;
    if (claimed < CLAIM_BATCH) return started;
  }
}
