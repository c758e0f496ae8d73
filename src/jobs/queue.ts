import type { FastifyBaseLogger } from 'fastify';
import type { ItemExecutor } from './executor.ts';
import type { JobStore } from './store.ts';
import type { EnqueueItems } from './types.ts';

/** How job items travel from the request that creates them to a process that runs them. */
export interface JobQueue {
  readonly engine: 'embedded' | 'pg-boss';
  /** Connects; needed before `enqueue`. */
  start(log: FastifyBaseLogger): Promise<void>;
  /** Queues items inside the transaction that stores them (a new job's, or those a running item found). */
  enqueue: EnqueueItems;
  /** Called once a transaction that stored items committed. */
  created(): void;
  /** Starts running items in this process, at most `concurrency` at once. */
  work(executor: ItemExecutor, store: JobStore, concurrency: number, log: FastifyBaseLogger): Promise<void>;
  /** Stops taking items; running ones are interrupted and handed back to run again. */
  close(): Promise<void>;
}
