import type { EngineName } from '../settings/index.ts';

/** One result as the API returns it. */
export interface SearchHit {
  url: string;
  title: string;
  description: string;
}

/** One query as an engine adapter receives it, already validated and normalised. */
export interface EngineQuery {
  query: string;
  /** Results wanted, 1-50. */
  limit: number;
  /** Upper-case ISO 3166-1 alpha-2 code. */
  location?: string;
  /** Bare lower-case host names. */
  includeDomains: string[];
  excludeDomains: string[];
}

/**
 * An engine adapter yields the engine's result pages one at a time; the collector decides when it
 * has enough, so paging, dedupe and filtering live in one place for every engine.
 */
export interface SearchEngine {
  readonly name: EngineName;
  pages(query: EngineQuery, signal: AbortSignal): AsyncIterable<SearchHit[]>;
}

/** A results page as fetched from a SERP engine. */
export interface SerpPage {
  /** URL of the last hop, after redirects. */
  url: string;
  statusCode: number;
  html: string;
}

/**
 * How SERP adapters get a page. The default goes through the HTTP engine (and so the SSRF guard);
 * a browser-stealth fetcher can be swapped in without touching the adapters.
 */
export type FetchPage = (url: string, signal: AbortSignal) => Promise<SerpPage>;
