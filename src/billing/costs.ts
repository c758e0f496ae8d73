import { PRICES_MICROS } from './prices.ts';

/** Cost of one search query asking for `limit` results: per query plus per page of 10 asked for. */
export function searchQueryCost(limit: number): number {
  return PRICES_MICROS.searchQuery + PRICES_MICROS.searchResultsPage * Math.ceil(limit / 10);
}

/** Cost of one successful fetch, any method; a summary is charged on top (summaryCost). */
export function fetchCost(): number {
  return PRICES_MICROS.fetch;
}

/** Cost of a result served from the cache instead of fetched, whatever its formats and additions. */
export function cachedCost(): number {
  return PRICES_MICROS.cached;
}

/** Cost of the summary addition for `urls` pages (or sequence breakpoints) summarised, on top of their fetch. */
export function summaryCost(urls = 1): number {
  return PRICES_MICROS.summary * urls;
}

/** Cost of the LLM extraction addition for `pages` pages, on top of their fetch; selectors cost nothing extra. */
export function extractCost(pages = 1): number {
  return PRICES_MICROS.extract * pages;
}

/** Cost of reading PDF pages by OCR, on top of the fetch. */
export function pdfOcrCost(pages: number): number {
  return PRICES_MICROS.pdfOcrPage * pages;
}

/** Cost of a sequence: per breakpoint captured (the spec's "per URL"), failed sequences included. */
export function sequenceCost(breakpoints: number): number {
  return PRICES_MICROS.sequenceBreakpoint * breakpoints;
}
