import type { FastifyBaseLogger } from 'fastify';
import type { Jobs } from '../jobs/index.ts';
import type { Database } from '../store/index.ts';
import { finishChecks } from './finish.ts';
import { MonitorStore } from './monitor-store.ts';
import { claimDue } from './scheduler.ts';
import type { CheckView, MonitorPatch, MonitorView, NewMonitor } from './types.ts';

export interface MonitorSettings {
  pollMs: number;
  checksKept: number;
  perKey: number;
}

/** The caller has as many monitors as WEBDATA_MONITORS_PER_KEY allows. */
export class MonitorLimitError extends Error {}

/**
 * Monitors: stored per user, their checks started by whichever process finds them due and ended
 * by whichever finds their jobs done (both exactly once, see scheduler.ts and finish.ts). A check
 * is an ordinary job of the monitor's user, so it is durable, cancellable, charged per page and
 * run in that user's fair share of the job lanes like any other job.
 */
export class Monitors {
  readonly store: MonitorStore;
  readonly #database: Database;
  readonly #jobs: Jobs;
  readonly #settings: MonitorSettings;
  #timer?: NodeJS.Timeout;
  #passing?: Promise<void>;
  #again = false;
  #log?: FastifyBaseLogger;

  constructor(database: Database, jobs: Jobs, settings: MonitorSettings) {
    this.store = new MonitorStore(database.db);
    this.#database = database;
    this.#jobs = jobs;
    this.#settings = settings;
  }

  /** Stores a monitor and looks for due checks at once, so its first (baseline) check starts now. */
  async create(m: NewMonitor): Promise<MonitorView> {
    if ((await this.store.count(m.userId)) >= this.#settings.perKey)
      throw new MonitorLimitError(
        `this key has ${this.#settings.perKey} monitors, the most WEBDATA_MONITORS_PER_KEY allows: delete one first`,
      );
    const view = await this.store.create(m);
    this.kick();
    return view;
  }

  async update(userId: string, id: string, patch: MonitorPatch): Promise<MonitorView | undefined> {
    const view = await this.store.update(userId, id, patch);
    if (view) this.kick();
    return view;
  }

  /** Deletes a monitor, cancelling its running check. */
  async delete(userId: string, id: string): Promise<boolean> {
    const deleted = await this.store.delete(userId, id);
    if (!deleted) return false;
    if (deleted.runningCheck) await this.#jobs.cancel(userId, deleted.runningCheck);
    return true;
  }

  checks(
    userId: string,
    id: string,
    page: number,
    limit: number,
  ): Promise<{ checks: CheckView[]; total: number } | undefined> {
    return this.store.checks(userId, id, page, limit);
  }

  /** Starts due checks and ends finished ones every `pollMs` in this process, from now on. */
  start(log: FastifyBaseLogger): void {
    this.#log = log;
    this.#timer = setInterval(() => this.kick(), this.#settings.pollMs);
    this.#timer.unref();
    this.kick();
  }

  /** One pass now (a pass running already is followed by another). */
  kick(): void {
    if (!this.#log) return;
    if (this.#passing) {
      this.#again = true;
      return;
    }
    this.#passing = this.#pass().finally(() => {
      this.#passing = undefined;
      if (this.#again) {
        this.#again = false;
        this.kick();
      }
    });
  }

  async #pass(): Promise<void> {
    try {
      if (await finishChecks(this.#database, this.#jobs, this.#settings.checksKept))
        this.#jobs.eventsWritten();
      await claimDue(this.#database, this.#jobs);
    } catch (err) {
      this.#log?.warn({ err }, 'monitor pass failed');
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#log = undefined;
    await this.#passing;
  }
}
