/**
 * The spec's price table, in integer micro-dollars (1 USD = 1,000,000) so sums never drift.
 * Every cost the service reports is computed from this table and nowhere else.
 */
export const PRICES_MICROS = {
  /** Search: per query, plus `searchResultsPage` per page of 10 results asked for. */
  searchQuery: 7_000,
  searchResultsPage: 1_000,
  /** Fetch, any method, per URL fetched successfully. */
  fetch: 2_000,
  /** Summary addition, per URL summarised, by the LLM or extractively alike. */
  summary: 1_000,
  /** LLM extraction addition, per page whose object validated (the spec leaves it open; priced like a summary). */
  extract: 1_000,
  /** PDF OCR, per page read by OCR. */
  pdfOcrPage: 3_000,
  /** Cached content, per URL served from cache. */
  cached: 2_000,
  /** Sequence, per breakpoint captured (the spec's "per URL"). */
  sequenceBreakpoint: 2_000,
  /** Map, per request whatever the number of URLs found. */
  map: 2_000,
  /** Screenshot, per capture. */
  screenshot: 3_000,
  /** PDF generation, per document (the spec leaves it open; priced like a screenshot). */
  pdf: 3_000,
  /** Browser session, per minute. */
  sessionHeadlessMinute: 2_000,
  sessionVisibleMinute: 10_000,
} as const;

/** Charge names as they appear in the usage ledger's `operation` column. */
export type Operation =
  | 'search'
  | 'scrape'
  | 'cached'
  | 'summary'
  | 'extract'
  | 'pdf-ocr'
  | 'sequence'
  | 'map'
  | 'screenshot'
  | 'pdf'
  | 'session';
