/**
 * Request and response shapes of the webdata API (docs/spec.md), written by
 * hand so the package depends on nothing of the server; test/client/openapi-contract.test.ts
 * checks every one against the server's /openapi.json.
 */

export type OutputFormat = 'markdown' | 'html';
export type SearchEngine = 'google' | 'bing' | 'chatgpt' | 'perplexity' | 'searxng' | 'brave';

export interface Proxy {
  country: string;
}
export interface Summary {
  query: string;
}

/** A CSS selector (text of the first match), or one with the attribute to read and whether to take every match. */
export type SelectorSpec = string | { selector: string; attribute?: string; all?: boolean };

/** Structured extraction: a JSON Schema for the LLM (with an optional instruction), or CSS selectors (no LLM). */
export type Extract =
  | { schema: Record<string, unknown>; prompt?: string }
  | { selectors: Record<string, SelectorSpec> };

/** What a summary and an extraction add to a page result. */
export interface PageExtras {
  content?: string;
  summarizer?: 'llm' | 'extractive';
  json?: unknown;
  warning?: string;
  finishReason?: string;
}

export type Step =
  | { type: 'scrape' }
  | { type: 'click'; selector: string }
  | { type: 'type'; selector: string; text: string }
  | { type: 'wait'; milliseconds: number }
  | { type: 'press'; key: string }
  | { type: 'scroll'; direction?: 'up' | 'down'; selector?: string }
  | { type: 'waitForSelector'; selector: string; timeout?: number }
  | { type: 'navigate'; url: string }
  | { type: 'goBack' };
export type Action = Exclude<Step, { type: 'scrape' }>;

export interface Metadata {
  title: string;
  description: string;
  canonicalUrl: string;
  finalUrl: string;
  contentType: string;
  contentLength: number;
}

/**
 * Several formats in one call (instead of `type`): `rawHtml` is the page as served, `links` every
 * link on it, `listing` its repeated cards as data.
 */
export type PageFormat = 'markdown' | 'html' | 'rawHtml' | 'links' | 'listing';

/** One card of a listing page: a product tile, a search result, an entry of a news list. */
export interface ListingItem {
  name: string;
  url: string;
  price?: number;
  /** ISO 4217, when the page names one currency. */
  currency?: string;
  image?: string;
  description?: string;
}

/** Compare the page with the last scrape of it by this key (and tag); needs markdown among the formats. */
export interface ChangeTrackingFormat {
  type: 'changeTracking';
  /** git-diff: a unified diff of the main-content markdown when it changed; json: the changed fields of the request's extraction (needs extract). */
  modes?: Array<'git-diff' | 'json'>;
  tag?: string;
}

/** How the page compares with the last scrape of it by the same key and tag. */
export interface ChangeTracking {
  changeStatus: 'new' | 'same' | 'changed' | 'removed';
  previousScrapeAt: string | null;
  visibility: 'visible' | 'hidden';
  diff?: { text: string };
  /** With modes ["json"]: the extraction's changed fields by dotted path. */
  json?: Record<string, { previous: unknown; current: unknown }>;
  tag?: string;
}

/** The engine a caller asks for: `auto` climbs the ladder, any other names the one engine to use. */
export type MethodChoice = 'auto' | 'http' | 'browser' | 'browser-stealth' | 'browser-firefox';

/** How a page is fetched and turned into content, wherever pages are scraped (a search's hits included). */
export interface PageOptions {
  method?: MethodChoice;
  type?: OutputFormat;
  formats?: Array<PageFormat | ChangeTrackingFormat>;
  /** CSS selectors: keep only these elements / drop these, before conversion. */
  includeTags?: string[];
  excludeTags?: string[];
  onlyMainContent?: boolean;
  /** Keep readers' comment threads under a story in the main content; default false. */
  includeComments?: boolean;
  extractMetadata?: boolean;
  pdfStrategy?: 'ocr' | 'local' | 'auto';
  /** Milliseconds: a cached result at most this old is served (at the cached price) instead of fetching; 0 always fetches. */
  maxAge?: number;
  /** Keep a successful result for later requests; default true. */
  storeInCache?: boolean;
}

export interface ScrapeRequest extends PageOptions {
  url: string;
  extract?: Extract;
  summary?: Summary;
  actions?: Action[];
  proxy?: Proxy;
}

export interface FetchResult extends PageExtras {
  url: string;
  success: boolean;
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  /** With the `listing` format: the page's cards, [] when it has none. */
  listing?: ListingItem[];
  statusCode: number;
  metadata?: Metadata;
  /** The engine that answered: plain HTTP, the headless browser, or the stealth browser; absent when nothing was acquired. */
  method?: 'http' | 'browser' | 'browser-stealth' | 'browser-firefox';
  /** hit: served from the cache, no request to the site; miss: fetched. */
  cacheState?: 'hit' | 'miss';
  /** When the content was fetched from the site; absent on a failure. */
  cachedAt?: string;
  changeTracking?: ChangeTracking;
  timestamp: string;
  cost: number;
  error?: string;
}

/** What `DELETE /v1/cache` removed: the caller's own entries only. */
export interface CacheDeleted {
  success: true;
  deleted: number;
}

export interface BatchRequest extends Omit<ScrapeRequest, 'url' | 'actions'> {
  urls: Array<string | ScrapeRequest>;
}

export interface BatchResponse {
  results: FetchResult[];
  total: number;
  successful: number;
  failed: number;
  timestamp: string;
  cost: number;
}

export interface SearchRequest {
  queries: string[];
  limit?: number;
  location?: string;
  includeDomains?: string[];
  excludeDomains?: string[];
  engine?: SearchEngine;
}

/** A sync search may also scrape every hit (an async search batch may not). */
export interface SearchWithPagesRequest extends SearchRequest {
  scrape?: PageOptions;
}

export interface SearchResponse {
  results: Array<{
    query: string;
    success: boolean;
    /** `page` is there when the request asked to `scrape` the hits. */
    results: Array<{ url: string; title: string; description: string; page?: FetchResult }>;
    loadTimeMs: number;
    cost: number;
    error?: string;
  }>;
  total: number;
  successful: number;
  failed: number;
  totalTimeMs: number;
  timestamp: string;
  cost: number;
}

export interface SequenceRequest {
  startUrl: string;
  steps: Step[];
  type?: OutputFormat;
  summary?: Summary;
  extract?: Extract;
  proxy?: Proxy;
  /** A sequence runs in a browser: `http` is refused. */
  method?: MethodChoice;
  onlyMainContent?: boolean;
  /** Keep readers' comment threads under a story in each breakpoint's main content; default false. */
  includeComments?: boolean;
  extractMetadata?: boolean;
}

export interface SequenceResponse {
  success: boolean;
  data: Array<
    PageExtras & {
      url: string;
      markdown?: string;
      html?: string;
      stepIndex: number;
      metadata?: Metadata;
    }
  >;
  totalBreakpoints: number;
  completedBreakpoints: number;
  method: 'browser' | 'browser-stealth' | 'browser-firefox';
  totalTimeMs: number;
  error?: string;
  failedAtStepIndex?: number;
  timestamp: string;
  cost: number;
}

/** POST /v1/extract: one object from all the pages, as a job of type `extract`. */
export interface ExtractRequest {
  urls: string[];
  schema: Record<string, unknown>;
  prompt?: string;
}

/** The one item result of an `extract` job. */
export interface ExtractResult {
  success: boolean;
  json?: unknown;
  error?: string;
  validationErrors?: string[];
  warning?: string;
  finishReason?: string;
  pages: Array<{ url: string; success: boolean; statusCode: number; error?: string }>;
  timestamp: string;
  cost: number;
}

export interface MapRequest {
  url: string;
  limit?: number;
  search?: string;
  includeSubdomains?: boolean;
  ignoreQueryParameters?: boolean;
}

export interface MapResponse {
  success: boolean;
  links: string[];
  total: number;
  cost: number;
  error?: string;
  timestamp: string;
}

export interface PdfOptions {
  title?: string;
  pageSize?: 'A4' | 'Letter' | 'Legal';
  landscape?: boolean;
  /** Each side a CSS length (`10mm`, `0.5in`) or pixels; sides left out get the default. */
  margin?: {
    top?: string | number;
    right?: string | number;
    bottom?: string | number;
    left?: string | number;
  };
  printBackground?: boolean;
  timeoutMs?: number;
}

export interface PdfResponse {
  success: boolean;
  url?: string;
  error?: string;
  durationMs: number;
  cost: number;
}

export interface ScreenshotRequest {
  url: string;
  fullPage?: boolean;
  selector?: string;
  width?: number;
  height?: number;
  waitFor?: number;
  actions?: Action[];
  proxy?: Proxy;
}

export interface ScreenshotResponse {
  success: boolean;
  url?: string;
  sourceUrl: string;
  width?: number;
  height?: number;
  cost: number;
  error?: string;
  timestamp: string;
}
