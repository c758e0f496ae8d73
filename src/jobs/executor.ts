import type { FastifyBaseLogger } from 'fastify';
import { Meter } from '../billing/index.ts';
import type { OpContext, Services } from '../ops/index.ts';
import { itemOperations, type ItemOperation } from './registry.ts';
import type { JobStore } from './store.ts';
import type { ClaimedItem, EnqueueItems, ItemOutcome, ItemRef } from './types.ts';

/** What the executor tells its surroundings: how to queue items an item found, and that a result was stored. */
export interface ExecutorHooks {
  enqueue: EnqueueItems;
  /** A result (and so perhaps new items and webhook events) was committed. */
  recorded(): void;
}

/** An item started this many times without a result (its runner died each time) is given up. */
export const MAX_ITEM_ATTEMPTS = 3;

/** How often a running item checks that its job was not cancelled; bounds the waste after a cancel. */
const CANCEL_CHECK_MS = 500;

class Stopping extends Error {}

/**
 * Runs claimed items through their job type's operation and records the results. Shared by both
 * engines: they differ only in how an item reaches `run`.
 */
export class ItemExecutor {
  readonly #store: JobStore;
  readonly #services: Services;
  readonly #log: FastifyBaseLogger;
  readonly #hooks: ExecutorHooks;
  readonly #inflight = new Set<AbortController>();

  constructor(store: JobStore, services: Services, log: FastifyBaseLogger, hooks: ExecutorHooks) {
    this.#store = store;
    this.#services = services;
    this.#log = log;
    this.#hooks = hooks;
  }

  async #record(item: ItemRef, outcome: ItemOutcome, meter: Meter): Promise<void> {
    if (await this.#store.record(item.jobId, item.index, outcome, meter, this.#hooks.enqueue)) this.#hooks.recorded();
  }

  /**
   * Runs a claimed item to a recorded result. Resolves false when the item was interrupted by a
   * stop (it must run again later), true otherwise.
   */
  async execute(item: ClaimedItem): Promise<boolean> {
    // A type written by a newer release that this process does not know.
    const op = itemOperations[item.type] as ItemOperation | undefined;
    if (!op) {
      await this.#store.fail(item.jobId, `this server cannot run ${item.type} jobs`);
      return true;
    }
    if (item.attempts > MAX_ITEM_ATTEMPTS) {
      await this.giveUp(item, `gave up after ${MAX_ITEM_ATTEMPTS} attempts: the process running this item stopped each time`);
      return true;
    }
    const controller = new AbortController();
    this.#inflight.add(controller);
    const watch = setInterval(() => {
      this.#store.isActive(item.jobId).then(
        (active) => active || controller.abort(new Error('job cancelled')),
        (err) => this.#log.warn({ err, jobId: item.jobId }, 'could not check job status'),
      );
    }, CANCEL_CHECK_MS);
    const meter = new Meter(item.userId, item.jobId);
    const ctx: OpContext = { userId: item.userId, signal: controller.signal, meter, log: this.#log, services: this.#services };
    let outcome: ItemOutcome;
    try {
      outcome = await (op as (input: unknown, ctx: OpContext) => Promise<ItemOutcome>)(item.input, ctx);
    } catch (err) {
      if (controller.signal.reason instanceof Stopping) return false;
      if (controller.signal.aborted) return true;
      this.#log.error({ err, jobId: item.jobId, index: item.index }, 'job item operation threw');
      // Charges made before the throw are dropped with the fresh meter: a failure costs nothing.
      await this.#record(item, { result: { success: false, error: err instanceof Error ? err.message : String(err), cost: 0 } }, new Meter(item.userId, item.jobId));
      return true;
    } finally {
      clearInterval(watch);
      this.#inflight.delete(controller);
    }
    if (controller.signal.reason instanceof Stopping) return false;
    // A cancel that arrived while the operation finished still wins: record() checks the job.
    await this.#record(item, outcome, meter);
    return true;
  }

  /**
   * Records an item that will not run again as a failed item that costs nothing, so its job still
   * ends. Does nothing when the item already has a result or its job is no longer active.
   */
  async giveUp(item: ItemRef, reason: string): Promise<void> {
    await this.#record(item, { result: { success: false, error: reason, cost: 0 } }, new Meter(item.userId, item.jobId));
  }

  /** Aborts every running item; each resolves false so its engine can hand it back. */
  stopAll(): void {
    for (const controller of this.#inflight) controller.abort(new Stopping('worker stopping'));
  }
}
