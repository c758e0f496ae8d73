import type { ProxyRoute } from '../acquire/index.ts';
import { BrowserBusyError } from '../browser/index.ts';
import type { OutputFormat, PdfStrategy } from '../content/index.ts';
import type { AcquireMethod, Action, FetchResult } from '../contract/index.ts';
import type { ExtractRequest, SummaryRequest } from '../extract/index.ts';
import {
  acquirePage,
  BlockedPageError,
  type LinksObserver,
  PageConverter,
  type PageFormat,
  type PageVisit,
} from '../page/index.ts';
import { type ChangeTrackingRequest, trackChanges } from './change-tracking.ts';
import type { OpContext } from './context.ts';
import { cacheSlot, missed } from './page-cache.ts';
import { failure, type PageResultOptions, pageResult } from './page-result.ts';
import { type ProxyRequest, proxyRoute } from './proxy.ts';

export { failure } from './page-result.ts';

export interface ScrapeOptions {
  type?: OutputFormat;
  onlyMainContent?: boolean;
  extractMetadata?: boolean;
  /** How PDFs are read: `ocr` (default, as the spec says), `local` text layer only, `auto`. */
  pdfStrategy?: PdfStrategy;
  /** An instruction about the page: the LLM's answer (without an LLM, the most relevant passages) becomes `content`. */
  summary?: SummaryRequest;
  /** Structured extraction (JSON Schema for the LLM, or CSS selectors); its object becomes `json`. */
  extract?: ExtractRequest;
  /** Geo-targeted request: HTTP fetches and browser pages leave through that country's proxy. */
  proxy?: ProxyRequest;
  /** The engines the caller allows, in ladder order (methodsFor); default the whole ladder. */
  methods?: AcquireMethod[];
  /** Several formats in one call, instead of `type`'s one. */
  formats?: PageFormat[];
  /** CSS selectors of the elements to keep / to drop before conversion. */
  includeTags?: string[];
  excludeTags?: string[];
  /** Readers' comment threads under a story stay in the main content (default false). */
  includeComments?: boolean;
  /** Milliseconds: a cached result at most this old is served instead of fetching; 0 always fetches. */
  maxAge?: number;
  /** Keep a successful result for later requests (default true). */
  storeInCache?: boolean;
  /** Compare the page's markdown with the last scrape of it by this key and tag. */
  changeTracking?: ChangeTrackingRequest;
}

export interface ScrapeInput extends ScrapeOptions {
  url: string;
  /** Browser actions run after load; when given the HTTP path is skipped. */
  actions?: Action[];
}

/**
 * Scrapes one URL, from the cache when the request allows it and a fresh enough result of the
 * same request is there (see page-cache.ts), otherwise by fetching it; every result says which.
 * `alongside` is done with the browser page of a fetch (not of a cache hit). Throws
 * BrowserBusyError when no browser page frees up in time, for the caller to answer 429.
 */
export async function scrape(
  input: ScrapeInput,
  ctx: OpContext,
  onLinks?: LinksObserver,
  alongside?: PageVisit,
): Promise<FetchResult> {
  const slot = cacheSlot(input, ctx);
  const hit = await slot?.lookup();
  if (hit) {
    if (hit.links) onLinks?.(hit.links);
    return hit.result;
  }
  let links: string[] | undefined;
  const observe = (found: string[]) => {
    links = found;
    onLinks?.(found);
  };
  const result = await fetchPage(input, ctx, slot || onLinks ? observe : undefined, alongside);
  const marked = slot ? slot.store(result, links) : missed(result);
  return input.changeTracking ? trackChanges(input, input.changeTracking, marked, ctx) : marked;
}

/**
 * Fetches one URL and converts it: acquirePage climbs the engine ladder (HTTP, browser,
 * browser-stealth) until the page's content is there, all within the page budget; pageResult
 * turns what it got into the result. Never throws for a page's fault: that is a failed result at
 * cost 0.
 */
async function fetchPage(
  input: ScrapeInput,
  ctx: OpContext,
  onLinks?: LinksObserver,
  alongside?: PageVisit,
): Promise<FetchResult> {
  const deadline = Date.now() + ctx.services.config.pageBudgetMs;
  let route: ProxyRoute | undefined;
  try {
    route = proxyRoute(ctx, input.proxy);
  } catch (err) {
    return failure(input.url, err);
  }
  const opts: PageResultOptions = {
    type: input.type ?? 'markdown',
    onlyMainContent: input.onlyMainContent ?? true,
    extractMetadata: input.extractMetadata ?? false,
    pdfStrategy: input.pdfStrategy ?? 'ocr',
    formats: input.formats,
    includeTags: input.includeTags,
    excludeTags: input.excludeTags,
    includeComments: input.includeComments ?? false,
    ...(input.summary ? { summary: input.summary } : {}),
    ...(input.extract ? { extract: input.extract } : {}),
    ...(onLinks ? { onLinks } : {}),
  };
  const converter = new PageConverter(ctx);
  try {
    const page = await acquirePage(
      {
        url: input.url,
        actions: input.actions ?? [],
        proxy: route,
        deadline,
        ...(input.methods ? { methods: input.methods } : {}),
        ...(alongside ? { alongside } : {}),
      },
      ctx,
      converter,
    );
    return await pageResult(input.url, page, opts, ctx, converter);
  } catch (err) {
    if (ctx.signal.aborted || err instanceof BrowserBusyError) throw err;
    return failure(input.url, err, err instanceof BlockedPageError ? err.statusCode : 0);
  }
}
