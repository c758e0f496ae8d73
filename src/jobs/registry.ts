import {
  crawlPage,
  extractAcross,
  type OpContext,
  scrape,
  searchQuery,
  sequence,
} from '../ops/index.ts';
import type { ItemOutcome, JobType } from './types.ts';

/**
 * The operation that runs one item of a job type: its result carries `cost` and is stored as the
 * item's result; `next` adds items to the job (a crawl's pages). Plugging in an operation is one
 * line; every job type must have one.
 */
export type ItemOperation = (input: never, ctx: OpContext) => Promise<ItemOutcome>;

/** An operation whose answer is the whole result, adding no items. */
function resultOnly<I>(
  op: (input: I, ctx: OpContext) => Promise<object>,
): (input: I, ctx: OpContext) => Promise<ItemOutcome> {
  return async (input, ctx) => ({ result: await op(input, ctx) });
}

export const itemOperations: Record<JobType, ItemOperation> = {
  'scrape-single': resultOnly(scrape),
  'scrape-batch': resultOnly(scrape),
  sequence: resultOnly(sequence),
  'sequence-batch': resultOnly(sequence),
  'search-batch': resultOnly(searchQuery),
  crawl: async (input: Parameters<typeof crawlPage>[0], ctx) => {
    const { page, discovered } = await crawlPage(input, ctx);
    return { result: page, next: discovered };
  },
  // One item: the object is drawn from every page at once.
  extract: resultOnly(extractAcross),
};
