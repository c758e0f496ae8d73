import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Tables } from '../store/index.ts';
import type { ItemExecutor } from './executor.ts';
import type { JobStore } from './store.ts';
import type { JobType } from './types.ts';

/** How job items travel from the request that creates them to a process that runs them. */
export interface JobQueue {
  readonly engine: 'embedded' | 'pg-boss';
  /** Connects; needed before `enqueue`. */
  start(log: FastifyBaseLogger): Promise<void>;
  /** Queues a new job's items inside the transaction that stores the job. */
  enqueue(trx: Transaction<Tables>, job: { id: string; userId: string; type: JobType; count: number }): Promise<void>;
  /** Called once that transaction committed. */
  created(): void;
  /** Starts running items in this process, at most `concurrency` at once. */
  work(executor: ItemExecutor, store: JobStore, concurrency: number, log: FastifyBaseLogger): Promise<void>;
  /** Stops taking items; running ones are interrupted and handed back to run again. */
  close(): Promise<void>;
}
