import { cachedCost, microsToUsd } from '../billing/index.ts';
import { cacheKey } from '../cache/index.ts';
import type { FetchResult } from '../contract/index.ts';
import { normalizeUrl } from '../discover/index.ts';
import type { OpContext } from './context.ts';
import type { ScrapeInput } from './scrape.ts';

/** What a cache entry holds: the result as fetched, and the page's links for a crawl served from it. */
interface Stored {
  result: Omit<FetchResult, 'cost' | 'timestamp' | 'cacheState' | 'cachedAt'>;
  links?: string[];
}

/** One cacheable request: how to find its entry and how to keep its result. */
export interface CacheSlot {
  /** The fresh enough entry as this request's result, charged the cached price; undefined on a miss. */
  lookup(): Promise<{ result: FetchResult; links?: string[] } | undefined>;
  /** Keeps a successful result when the request allows it, and marks it a miss. */
  store(result: FetchResult, links: string[] | undefined): FetchResult;
}

/** A fetched result, marked as such. */
export function missed(result: FetchResult): FetchResult {
  return {
    ...result,
    cacheState: 'miss',
    ...(result.success ? { cachedAt: result.timestamp } : {}),
  };
}

/**
 * Everything that shapes a scrape's result, in a fixed order, hashed: the URL in its one
 * normalised spelling, formats, main-content and tag options, metadata, PDF strategy, proxy
 * country, summary and extraction. User-given objects (a schema) are hashed as sent, so the same
 * schema with its keys in another order is a miss, never a wrong hit.
 */
function keyOf(input: ScrapeInput, url: string): string {
  return cacheKey([
    url,
    input.type ?? 'markdown',
    input.formats ?? null,
    input.onlyMainContent ?? true,
    input.extractMetadata ?? false,
    input.includeTags ?? null,
    input.excludeTags ?? null,
    input.pdfStrategy ?? 'ocr',
    input.proxy?.country.toLowerCase() ?? null,
    input.summary ?? null,
    input.extract ?? null,
    // Only when asked for: the keys of results stored before the option existed stay valid.
    ...(input.includeComments ? ['includeComments'] : []),
  ]);
}

/**
 * The cache's part in one scrape, or undefined when the request has none: browser actions make a
 * page no one else's request would see, and a URL carrying credentials (user:pass@) is never
 * kept. Nothing is looked up for maxAge 0, nothing kept with storeInCache false. A cache that fails
 * (database, disk) costs the request its cache, never its answer.
 */
export function cacheSlot(input: ScrapeInput, ctx: OpContext): CacheSlot | undefined {
  if (input.actions?.length) return undefined;
  const url = normalizeUrl(input.url, undefined, { ignoreQuery: false })?.href;
  if (!url) return undefined;
  // Change tracking compares what the page says now: never an earlier answer.
  const maxAge = input.changeTracking
    ? 0
    : (input.maxAge ?? ctx.services.config.cache.defaultMaxAgeMs);
  const store = input.storeInCache ?? true;
  if (maxAge === 0 && !store) return undefined;
  const { cache } = ctx.services;
  const key = keyOf(input, url);
  return {
    async lookup() {
      if (maxAge === 0) return undefined;
      let entry: Awaited<ReturnType<typeof cache.get>>;
      try {
        entry = await cache.get(ctx.userId, key, Date.now() - maxAge);
      } catch (err) {
        ctx.log.warn({ err }, 'cache lookup failed; fetching');
        return undefined;
      }
      if (!entry) return undefined;
      const stored = JSON.parse(entry.body) as Stored;
      const cost = ctx.meter.charge('cached', 1, cachedCost());
      return {
        result: {
          ...stored.result,
          url: input.url,
          cacheState: 'hit',
          cachedAt: new Date(entry.cachedAt).toISOString(),
          timestamp: new Date().toISOString(),
          cost: microsToUsd(cost),
        },
        ...(stored.links ? { links: stored.links } : {}),
      };
    },
    store(result, links) {
      const marked = missed(result);
      if (!store || !result.success || ctx.signal.aborted) return marked;
      const { cost: _cost, timestamp: _at, ...kept } = result;
      const body: Stored = { result: kept, ...(links ? { links } : {}) };
      // Not waited for: the answer need not wait for the disk (see PageCache.put).
      cache
        .put(ctx.userId, key, url, JSON.stringify(body), Date.parse(result.timestamp))
        .catch((err: unknown) => ctx.log.warn({ err }, 'cache store failed'));
      return marked;
    },
  };
}
