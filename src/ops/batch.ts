import pLimit from 'p-limit';
import { BrowserBusyError } from '../browser/index.ts';
import type { BatchResult, FetchResult } from '../contract/index.ts';
import type { OpContext } from './context.ts';
import { failure, type ScrapeInput, type ScrapeOptions, scrape } from './scrape.ts';
import { tally } from './tally.ts';

export interface BatchInput extends ScrapeOptions {
  /** A URL, or an object carrying `url` plus single-scrape fields that override the batch's. */
  urls: Array<string | ScrapeInput>;
}

export function batchItems(input: BatchInput): ScrapeInput[] {
  const shared: ScrapeOptions = {
    type: input.type,
    onlyMainContent: input.onlyMainContent,
    extractMetadata: input.extractMetadata,
    pdfStrategy: input.pdfStrategy,
    summary: input.summary,
    extract: input.extract,
    proxy: input.proxy,
    methods: input.methods,
    formats: input.formats,
    includeTags: input.includeTags,
    excludeTags: input.excludeTags,
    includeComments: input.includeComments,
    maxAge: input.maxAge,
    storeInCache: input.storeInCache,
    changeTracking: input.changeTracking,
  };
  return input.urls.map((item) => {
    const own = typeof item === 'string' ? { url: item } : item;
    const merged: ScrapeInput = { ...shared, url: own.url };
    for (const [k, v] of Object.entries(own))
      if (v !== undefined) (merged as unknown as Record<string, unknown>)[k] = v;
    return merged;
  });
}

export function totalBatch(results: FetchResult[]): BatchResult {
  const { cost, ...counts } = tally(results);
  return { results, ...counts, timestamp: new Date().toISOString(), cost };
}

/** Scrapes every URL independently with bounded concurrency; results keep the input order. */
export async function scrapeBatch(input: BatchInput, ctx: OpContext): Promise<BatchResult> {
  const limit = pLimit(ctx.services.config.batchConcurrency);
  // A URL that finds every browser page busy fails alone; the rest of the batch carries on.
  const one = (item: ScrapeInput) =>
    scrape(item, ctx).catch((err: unknown) => {
      if (err instanceof BrowserBusyError && !ctx.signal.aborted) return failure(item.url, err);
      throw err;
    });
  const results = await Promise.all(batchItems(input).map((item) => limit(() => one(item))));
  return totalBatch(results);
}
