import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Tables } from '../store/index.ts';
import type { ItemExecutor } from './executor.ts';
import type { JobStore } from './job-store.ts';
import type { EnqueueItems, ItemKey } from './types.ts';

/** What a queue runs its items with, in the process that works them. */
export interface QueueWorker {
  executor: ItemExecutor;
  store: JobStore;
  concurrency: number;
  log: FastifyBaseLogger;
}

/** How job items travel from the request that creates them to a process that runs them. */
export interface JobQueue {
  /** Connects; needed before `enqueue`. */
  start(log: FastifyBaseLogger): Promise<void>;
  /** Queues items inside the transaction that stores them (a new job's, or those a running item found). */
  enqueue: EnqueueItems;
  /** Marks items whose runs ended done in the queue, inside the transaction that records their results. */
  settle(trx: Transaction<Tables>, items: ItemKey[]): Promise<void>;
  /** Called once a transaction that stored items committed. */
  created(): void;
  /** Starts running items in this process, at most `concurrency` at once. */
  work(worker: QueueWorker): Promise<void>;
  /** Stops taking items; running ones are interrupted and handed back to run again. */
  close(): Promise<void>;
}

/** Attempts a queue makes at an item whose handling fails below the item operation (the database unreachable, say). */
export const QUEUE_RETRY_LIMIT = 10;

/** The failed result of an item its queue stopped retrying. */
export function givenUpReason(attempts: number, last: unknown): string {
  return `the job queue gave up on this item after ${attempts} attempts${typeof last === 'string' ? ` (last: ${last})` : ''}`;
}
