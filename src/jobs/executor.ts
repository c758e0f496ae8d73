import type { FastifyBaseLogger } from 'fastify';
import { Meter } from '../billing/index.ts';
import { callerText } from '../browser/index.ts';
import type { OpContext, Services } from '../ops/index.ts';
import type { JobStore } from './job-store.ts';
import { ItemRecorder, type RecorderHooks } from './recorder.ts';
import { type ItemOperation, itemOperations } from './registry.ts';
import type { ClaimedItem, ItemOutcome, ItemRef } from './types.ts';

/** An item started this many times without a result (its runner died each time) is given up. */
export const MAX_ITEM_ATTEMPTS = 3;

/** How often running items check that their jobs were not cancelled; bounds the waste after a cancel. */
const CANCEL_CHECK_MS = 500;

/** Ended jobs an executor remembers. */
const ENDED_REMEMBERED = 1000;

class Stopping extends Error {}

/**
 * How a run ended: interrupted by a stop (the item must run again later), or finished, with the
 * promise of its result (or its settling in the queue) committing.
 */
export type Executed = { stopped: true } | { stopped: false; recorded: Promise<void> };

/**
 * Runs claimed items through their job type's operation and hands the results to the recorder,
 * which writes them in batches. Shared by both queues: they differ only in how an item reaches
 * `execute`. Whether jobs were cancelled is asked for all running items in one statement.
 */
export class ItemExecutor {
  readonly #store: JobStore;
  readonly #services: Services;
  readonly #log: FastifyBaseLogger;
  readonly #recorder: ItemRecorder;
  /** Operations running now; their results are yet to reach the recorder. */
  #operating = 0;
  /** Running items' abort controllers by job. */
  readonly #running = new Map<string, Set<AbortController>>();
  #watch?: NodeJS.Timeout;
  /** Jobs seen cancelled or ended by the last checks: an item of theirs claimed earlier does not start. */
  readonly #ended = new Set<string>();

  constructor(store: JobStore, services: Services, log: FastifyBaseLogger, hooks: RecorderHooks) {
    this.#store = store;
    this.#services = services;
    this.#log = log;
    this.#recorder = new ItemRecorder(store, hooks, () => this.#operating > 0);
  }

  /** Runs a claimed item; resolves when its operation ended, before its result is written. */
  async execute(item: ClaimedItem): Promise<Executed> {
    // A type written by a newer release that this process does not know.
    const op = itemOperations[item.type] as ItemOperation | undefined;
    if (!op) {
      await this.#store.fail(item.jobId, `this server cannot run ${item.type} jobs`);
      return { stopped: false, recorded: this.#recorder.settle(item) };
    }
    if (this.#ended.has(item.jobId))
      return { stopped: false, recorded: this.#recorder.settle(item) };
    if (item.attempts > MAX_ITEM_ATTEMPTS) {
      return {
        stopped: false,
        recorded: this.giveUp(
          item,
          `gave up after ${MAX_ITEM_ATTEMPTS} attempts: the process running this item stopped each time`,
        ),
      };
    }
    const controller = new AbortController();
    this.#follow(item.jobId, controller);
    const meter = new Meter(item.userId, item.jobId);
    const ctx: OpContext = {
      userId: item.userId,
      signal: controller.signal,
      meter,
      log: this.#log,
      services: this.#services,
    };
    try {
      const outcome = await this.#operate(op, item.input, ctx);
      if (controller.signal.reason instanceof Stopping) return { stopped: true };
      // A cancel that arrived while the operation finished still wins: recording checks the job.
      return { stopped: false, recorded: this.#recorder.record(item, outcome, meter) };
    } catch (err) {
      if (controller.signal.reason instanceof Stopping) return { stopped: true };
      if (controller.signal.aborted)
        return { stopped: false, recorded: this.#recorder.settle(item) };
      this.#log.error({ err, jobId: item.jobId, index: item.index }, 'job item operation threw');
      // Charges made before the throw are dropped with the fresh meter: a failure costs nothing.
      const failed = {
        success: false,
        error: callerText(err),
        cost: 0,
      };
      return {
        stopped: false,
        recorded: this.#recorder.record(
          item,
          { result: failed },
          new Meter(item.userId, item.jobId),
        ),
      };
    } finally {
      this.#unfollow(item.jobId, controller);
    }
  }

  async #operate(op: ItemOperation, input: unknown, ctx: OpContext): Promise<ItemOutcome> {
    this.#operating++;
    try {
      return await (op as (input: unknown, ctx: OpContext) => Promise<ItemOutcome>)(input, ctx);
    } finally {
      this.#operating--;
    }
  }

  /**
   * Records an item that will not run again as a failed item that costs nothing, so its job still
   * ends. Writes nothing when the item already has a result or its job is no longer active.
   */
  giveUp(item: ItemRef, reason: string): Promise<void> {
    return this.#recorder.record(
      item,
      { result: { success: false, error: reason, cost: 0 } },
      new Meter(item.userId, item.jobId),
    );
  }

  #follow(jobId: string, controller: AbortController): void {
    const controllers = this.#running.get(jobId) ?? new Set();
    controllers.add(controller);
    this.#running.set(jobId, controllers);
    this.#watch ??= setInterval(() => this.#checkCancelled(), CANCEL_CHECK_MS);
  }

  #unfollow(jobId: string, controller: AbortController): void {
    const controllers = this.#running.get(jobId);
    controllers?.delete(controller);
    if (controllers?.size === 0) this.#running.delete(jobId);
    if (this.#running.size === 0) {
      clearInterval(this.#watch);
      this.#watch = undefined;
    }
  }

  #checkCancelled(): void {
    const ids = [...this.#running.keys()];
    this.#store.activeOf(ids).then(
      (active) => {
        // Ended jobs never run again, so forgetting old ones only costs an item of theirs a late abort.
        if (this.#ended.size > ENDED_REMEMBERED) this.#ended.clear();
        for (const id of ids) {
          if (active.has(id)) continue;
          this.#ended.add(id);
          for (const c of this.#running.get(id) ?? []) c.abort(new Error('job cancelled'));
        }
      },
      (err) => this.#log.warn({ err }, 'could not check job status'),
    );
  }

  /** A job was cancelled in this process: its running items stop now, and its claimed ones never start. */
  cancelled(jobId: string): void {
    this.#ended.add(jobId);
    for (const c of this.#running.get(jobId) ?? []) c.abort(new Error('job cancelled'));
  }

  /** Aborts every running item; each resolves stopped so its queue can hand it back. */
  stopAll(): void {
    for (const controllers of this.#running.values())
      for (const c of controllers) c.abort(new Stopping('worker stopping'));
  }

  /** Writes the results still waiting for a batch. */
  drain(): Promise<void> {
    return this.#recorder.drain();
  }
}
