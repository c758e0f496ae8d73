import { scrape, searchQuery, type OpContext } from '../ops/index.ts';
import type { JobType } from './types.ts';

/**
 * The operation that runs one item of a job type: a plain ops function whose result carries
 * `cost` and is stored as the item's result. A job type is accepted by the API once it is here:
 * plugging in a new operation is one line.
 */
export type ItemOperation = (input: never, ctx: OpContext) => Promise<object>;

export const itemOperations: Partial<Record<JobType, ItemOperation>> = {
  'scrape-single': scrape,
  'scrape-batch': scrape,
  'search-batch': searchQuery,
};
