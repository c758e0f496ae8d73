import type { SearchProviderName } from '../settings/index.ts';

/** One result as the API returns it. */
export interface SearchHit {
  url: string;
  title: string;
  description: string;
}

/** One query as a provider adapter receives it, already validated and normalised. */
export interface ProviderQuery {
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
 * A provider adapter yields the provider's result pages one at a time; the collector decides when it
 * has enough, so paging, dedupe and filtering live in one place for every provider.
 */
export interface SearchProvider {
  readonly name: SearchProviderName;
  pages(query: ProviderQuery, signal: AbortSignal): AsyncIterable<SearchHit[]>;
}

/** A results page as fetched from a SERP provider. */
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
