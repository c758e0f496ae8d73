import { extractAcross, scrape, searchQuery, sequence, type OpContext } from '../ops/index.ts';
import type { JobType } from './types.ts';

/**
 * The operation that runs one item of a job type: a plain ops function whose result carries
 * `cost` and is stored as the item's result. Plugging in an operation is one line; every job
 * type must have one.
 */
export type ItemOperation = (input: never, ctx: OpContext) => Promise<object>;

export const itemOperations: Record<JobType, ItemOperation> = {
  'scrape-single': scrape,
  'scrape-batch': scrape,
  sequence,
  'sequence-batch': sequence,
  'search-batch': searchQuery,
  // One item: the object is drawn from every page at once.
  extract: extractAcross,
};
