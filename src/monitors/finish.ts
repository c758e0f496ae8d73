import { microsToUsd } from '../billing/index.ts';
import type { JobSummary, Jobs } from '../jobs/index.ts';
import type { Database } from '../store/index.ts';
import { type WebhookTarget, writeEvent } from '../webhooks/index.ts';
import type { CheckPage, CheckStatus, Notify } from './types.ts';

/** A check's outcome, drawn from its job and the job's page results. */
export interface CheckOutcome {
  status: Exclude<CheckStatus, 'running'>;
  pages: CheckPage[];
  changed: CheckPage[];
  costMicros: number;
  error: string | null;
}

interface PageResult {
  url: string;
  success: boolean;
  statusCode?: number;
  cost?: number;
  error?: string;
  changeTracking?: {
    changeStatus: string;
    previousScrapeAt: string | null;
    diff?: { text: string };
  };
}

function pageOf(result: PageResult | null): CheckPage {
  if (!result) return { url: '', status: 'failed', error: 'the page has no result', cost: 0 };
  const cost = result.cost ?? 0;
  const ct = result.changeTracking;
  if (ct)
    return {
      url: result.url,
      status: ct.changeStatus,
      previousScrapeAt: ct.previousScrapeAt,
      ...(ct.diff ? { diff: ct.diff.text } : {}),
      cost,
    };
  if (!result.success)
    return {
      url: result.url,
      status: 'failed',
      error: result.error ?? `the page answered ${result.statusCode}`,
      cost,
    };
  return { url: result.url, status: 'untracked', cost };
}

/**
 * What a check found. A page counts as a change when changed or removed, and when new after the
 * monitor's first check (the first one is the baseline: every page is new to it). A check fails
 * when its job could not run or any page could not be fetched; a cancelled check is not a failure.
 */
export function outcomeOf(
  job: JobSummary | undefined,
  results: unknown[],
  baseline: boolean,
): CheckOutcome {
  if (!job)
    return {
      status: 'failed',
      pages: [],
      changed: [],
      costMicros: 0,
      error: "the check's job expired before its results were read",
    };
  const pages = results.map((r) => pageOf(r as PageResult | null));
  const changed = pages.filter(
    (p) => p.status === 'changed' || p.status === 'removed' || (p.status === 'new' && !baseline),
  );
  const failed = pages.filter((p) => p.status === 'failed');
  const base = { pages, changed, costMicros: job.costMicros };
  if (job.status === 'cancelled') return { ...base, status: 'cancelled', error: null };
  if (job.status === 'failed')
    return { ...base, status: 'failed', error: job.error ?? 'the check could not run' };
  if (failed.length > 0)
    return {
      ...base,
      status: 'failed',
      error: `${failed.length} of ${pages.length} pages failed; ${failed[0]!.url}: ${failed[0]!.error}`,
    };
  return { ...base, status: 'completed', error: null };
}

/**
 * Ends the checks whose jobs are no longer running: each one's outcome is written, its monitor's
 * state moved on (and freed for its next tick), and its webhook event put in the outbox, in one
 * transaction claimed by a conditional update on the monitor, so each check ends exactly once
 * whichever processes look. Answers whether events were written.
 */
export async function finishChecks(
  database: Database,
  jobs: Jobs,
  checksKept: number,
): Promise<boolean> {
  const running = await database.db
    .selectFrom('monitors')
    .select(['id', 'user_id', 'running_check'])
    .where('running_check', 'is not', null)
    .execute();
  if (running.length === 0) return false;
  const active = await jobs.store.activeOf(running.map((r) => r.running_check!));
  let events = false;
  for (const row of running) {
    const checkId = row.running_check!;
    if (active.has(checkId)) continue;
    const page = await jobs.page(row.user_id, checkId, 0, Number.MAX_SAFE_INTEGER);
    events = (await finishOne(database, row.id, checkId, page, checksKept)) || events;
  }
  return events;
}

async function finishOne(
  database: Database,
  monitorId: string,
  checkId: string,
  page: { job: JobSummary; data: unknown[] } | undefined,
  checksKept: number,
): Promise<boolean> {
  const now = Date.now();
  return database.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('monitors')
      .select(['checks', 'consecutive_failures', 'notify', 'webhook', 'name', 'user_id'])
      .where('id', '=', monitorId)
      .where('running_check', '=', checkId)
      .executeTakeFirst();
    if (!before) return false;
    const outcome = outcomeOf(page?.job, page?.data ?? [], before.checks === 0);
    const failed = outcome.status === 'failed';
    const ended = await trx
      .updateTable('monitors')
      .set({
        running_check: null,
        checks: before.checks + 1,
        last_check_at: now,
        last_status: outcome.status,
        last_error: outcome.error,
        consecutive_failures: failed ? before.consecutive_failures + 1 : 0,
        updated_at: now,
      })
      .where('id', '=', monitorId)
      .where('running_check', '=', checkId)
      .executeTakeFirst();
    // Another process ended it between our read and update (Postgres): theirs stands.
    if (Number(ended.numUpdatedRows) !== 1) return false;
    await trx
      .updateTable('monitor_checks')
      .set({
        finished_at: now,
        status: outcome.status,
        pages: JSON.stringify(outcome.pages),
        changed: outcome.changed.length,
        cost_micros: outcome.costMicros,
        error: outcome.error,
      })
      .where('id', '=', checkId)
      .execute();
    const kept = await trx
      .selectFrom('monitor_checks')
      .select('scheduled_at')
      .where('monitor_id', '=', monitorId)
      .orderBy('scheduled_at', 'desc')
      .offset(checksKept - 1)
      .limit(1)
      .executeTakeFirst();
    if (kept)
      await trx
        .deleteFrom('monitor_checks')
        .where('monitor_id', '=', monitorId)
        .where('scheduled_at', '<', Number(kept.scheduled_at))
        .execute();
    const event =
      outcome.changed.length > 0
        ? 'monitor.change'
        : (before.notify as Notify) === 'always'
          ? 'monitor.check'
          : undefined;
    if (!event || !before.webhook || !page) return false;
    const check = await trx
      .selectFrom('monitor_checks')
      .select('scheduled_at')
      .where('id', '=', checkId)
      .executeTakeFirst();
    await writeEvent(
      trx,
      {
        jobId: checkId,
        userId: before.user_id,
        jobType: page.job.type,
        target: JSON.parse(before.webhook) as WebhookTarget,
        event,
        data: {
          monitorId,
          ...(before.name !== null ? { name: before.name } : {}),
          checkId,
          scheduledAt: check ? new Date(Number(check.scheduled_at)).toISOString() : null,
          status: outcome.status,
          pages: outcome.pages.length,
          changes: outcome.changed.map((p) => ({
            url: p.url,
            changeStatus: p.status,
            previousScrapeAt: p.previousScrapeAt ?? null,
            ...(p.diff !== undefined ? { diff: p.diff } : {}),
          })),
          cost: microsToUsd(outcome.costMicros),
        },
      },
      now,
    );
    return true;
  });
}
