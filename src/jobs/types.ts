import type { Transaction } from 'kysely';
import type { Tables } from '../store/index.ts';
export const JOB_TYPES = [
  'scrape-single',
  'scrape-batch',
  'sequence',
  'sequence-batch',
  'search-batch',
  'crawl',
  'extract',
] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const JOB_STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Statuses in which a job's items may still run. */
export const ACTIVE_STATUSES: JobStatus[] = ['pending', 'processing'];

export interface JobSummary {
  id: string;
  userId: string;
  type: JobType;
  status: JobStatus;
  total: number;
  completed: number;
  costMicros: number;
  error: string | null;
  createdAt: number;
  expiresAt: number;
}

/** One page of a job's item results, in input order; null for an item that has no result. */
export interface JobPage {
  job: JobSummary;
  data: Array<unknown | null>;
}

/** Which item, and whose job of which type: what a queue message carries. */
export interface ItemRef {
  jobId: string;
  index: number;
  userId: string;
  type: JobType;
}

/** Whose job of which type, without an item: what claiming from a job needs to know of it. */
export type JobRef = Omit<ItemRef, 'index'>;

/** An item as the queue and the recorder know it. */
export interface ItemKey {
  jobId: string;
  index: number;
}

/** An item's key in maps and sets: `jobId:index`. */
export const keyOf = (item: ItemKey): string => `${item.jobId}:${item.index}`;

/** An item claimed for running: everything the runner needs without another read. */
export interface ClaimedItem extends ItemRef {
  input: unknown;
  /** Including this one. */
  attempts: number;
}

/** An item a running item found for its job (a crawl's next page); `key` deduplicates it within the job. */
export interface NextItem {
  key: string;
  input: unknown;
}

/** What running one item produced: its stored result, and any items it adds to its job. */
export interface ItemOutcome {
  result: object;
  next?: NextItem[];
}

/** Queues a job's items `from` .. `from + count - 1` inside the transaction that stores them. */
export type EnqueueItems = (
  trx: Transaction<Tables>,
  items: { id: string; userId: string; type: JobType; from: number; count: number },
) => Promise<void>;
