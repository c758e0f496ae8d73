import type { Kysely, Selectable } from 'kysely';
import { newestPage, type Tables, usersRows } from '../store/index.ts';
import { nextTick } from './schedule.ts';
import type {
  CheckPage,
  CheckStatus,
  CheckView,
  MonitorPatch,
  MonitorView,
  NewMonitor,
  Notify,
} from './types.ts';

type MonitorRow = Selectable<Tables['monitors']>;
type CheckRow = Selectable<Tables['monitor_checks']>;

export function toView(row: MonitorRow): MonitorView {
  const webhook = row.webhook ? (JSON.parse(row.webhook) as { url: string }) : undefined;
  const paused = row.paused === 1;
  return {
    id: row.id,
    ...(row.name !== null ? { name: row.name } : {}),
    request: JSON.parse(row.request),
    schedule: JSON.parse(row.schedule),
    notify: row.notify as Notify,
    ...(webhook ? { webhook: { url: webhook.url } } : {}),
    paused,
    status: paused ? 'paused' : row.consecutive_failures > 0 ? 'failing' : 'active',
    nextRunAt: Number(row.next_run_at),
    runningCheck: row.running_check,
    checks: row.checks,
    lastCheckAt: row.last_check_at === null ? null : Number(row.last_check_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    consecutiveFailures: row.consecutive_failures,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toCheck(row: CheckRow): CheckView {
  return {
    id: row.id,
    monitorId: row.monitor_id,
    scheduledAt: Number(row.scheduled_at),
    startedAt: Number(row.started_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    status: row.status as CheckStatus,
    changed: row.changed,
    costMicros: Number(row.cost_micros),
    error: row.error,
    pages: row.pages ? (JSON.parse(row.pages) as CheckPage[]) : [],
  };
}

/** A user's monitors and their checks in the store (both backends); every read is scoped to the user. */
export class MonitorStore {
  readonly #db: Kysely<Tables>;

  constructor(db: Kysely<Tables>) {
    this.#db = db;
  }

  async count(userId: string): Promise<number> {
    const { n } = await this.#db
      .selectFrom('monitors')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Stores a monitor; its first check is due at once (the baseline its later checks compare with). */
  async create(m: NewMonitor, now = Date.now()): Promise<MonitorView> {
    const row: MonitorRow = {
      id: m.id,
      user_id: m.userId,
      name: m.name ?? null,
      request: JSON.stringify(m.request),
      job_type: m.job.type,
      job: JSON.stringify(m.job),
      schedule: JSON.stringify(m.schedule),
      notify: m.notify,
      webhook: m.webhook ? JSON.stringify(m.webhook) : null,
      paused: m.paused ? 1 : 0,
      next_run_at: now,
      running_check: null,
      checks: 0,
      last_check_at: null,
      last_status: null,
      last_error: null,
      consecutive_failures: 0,
      created_at: now,
      updated_at: now,
    };
    await this.#db.insertInto('monitors').values(row).execute();
    return toView(row);
  }

  async get(userId: string, id: string): Promise<MonitorView | undefined> {
    const row = await usersRows(this.#db, 'monitors', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toView(row);
  }

  async list(
    userId: string,
    page: number,
    limit: number,
  ): Promise<{ monitors: MonitorView[]; total: number }> {
    const rows = await newestPage(usersRows(this.#db, 'monitors', userId), ['created_at', 'id'], {
      page,
      limit,
    }).execute();
    return { monitors: rows.map(toView), total: await this.count(userId) };
  }

  /**
   * Changes what PATCH may change. A new schedule takes effect from now (its next tick after now);
   * resuming keeps the tick that was due, so a monitor paused past it checks at once.
   */
  async update(
    userId: string,
    id: string,
    patch: MonitorPatch,
    now = Date.now(),
  ): Promise<MonitorView | undefined> {
    const set: Partial<MonitorRow> = { updated_at: now };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.notify !== undefined) set.notify = patch.notify;
    if (patch.paused !== undefined) set.paused = patch.paused ? 1 : 0;
    if (patch.webhook !== undefined)
      set.webhook = patch.webhook ? JSON.stringify(patch.webhook) : null;
    if (patch.schedule !== undefined) {
      set.schedule = JSON.stringify(patch.schedule);
      set.next_run_at = nextTick(patch.schedule, now, now);
    }
    const row = await this.#db
      .updateTable('monitors')
      .set(set)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    return row && toView(row);
  }

  /** Deletes a monitor and its checks; answers the check that was running, for the caller to cancel. */
  async delete(userId: string, id: string): Promise<{ runningCheck: string | null } | undefined> {
    return this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .deleteFrom('monitors')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returning('running_check')
        .executeTakeFirst();
      if (!row) return undefined;
      await trx.deleteFrom('monitor_checks').where('monitor_id', '=', id).execute();
      return { runningCheck: row.running_check };
    });
  }

  /** A monitor's checks, newest first; undefined when the monitor is not the user's. */
  async checks(
    userId: string,
    id: string,
    page: number,
    limit: number,
  ): Promise<{ checks: CheckView[]; total: number } | undefined> {
    const monitor = await this.get(userId, id);
    if (!monitor) return undefined;
    const rows = await newestPage(
      this.#db.selectFrom('monitor_checks').selectAll().where('monitor_id', '=', id),
      ['scheduled_at', 'started_at'],
      { page, limit },
    ).execute();
    const { n } = await this.#db
      .selectFrom('monitor_checks')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('monitor_id', '=', id)
      .executeTakeFirstOrThrow();
    return { checks: rows.map(toCheck), total: Number(n) };
  }
}
