import { microsToUsd, usdToMicros } from '../billing/index.ts';
import type { SearchResult } from '../contract/index.ts';
import { scrapeBatch } from './batch.ts';
import type { OpContext } from './context.ts';
import type { ScrapeInput } from './scrape.ts';
import { type SearchInput, search } from './search.ts';

/**
 * Searches, then scrapes every hit of every successful query as one batch (bounded concurrency,
 * a failed page never sinks the rest). Each page is charged as a scrape, on top of the search.
 */
export async function searchWithPages(
  input: SearchInput,
  options: Omit<ScrapeInput, 'url'>,
  ctx: OpContext,
): Promise<SearchResult> {
  const found = await search(input, ctx);
  const hits = found.results.flatMap((q) => q.results);
  if (hits.length === 0) return found;
  const pages = await scrapeBatch({ urls: hits.map((hit) => ({ ...options, url: hit.url })) }, ctx);
  let i = 0;
  let total = 0;
  const results = found.results.map((q) => {
    let micros = usdToMicros(q.cost);
    const withPages = q.results.map((hit) => {
      const page = pages.results[i++]!;
      micros += usdToMicros(page.cost);
      return { ...hit, page };
    });
    total += micros;
    return { ...q, results: withPages, cost: microsToUsd(micros) };
  });
  return { ...found, results, cost: microsToUsd(total) };
}
