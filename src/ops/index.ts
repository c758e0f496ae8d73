export { type BatchInput, batchItems, scrapeBatch } from './batch.ts';
export type { ChangeTrackingRequest } from './change-tracking.ts';
export type { OpContext, Services } from './context.ts';
export {
  type CrawlPageInput,
  type CrawlSettings,
  crawlPage,
  crawlPoliteness,
} from './crawl.ts';
export { type ExtractInput, extractAcross } from './extract.ts';
export {
  ExtractFields,
  extractInput,
  extractRequest,
} from './extract-input.ts';
export { openArtifact } from './files.ts';
export { InputError } from './input-error.ts';
export {
  Format,
  MAX_PROMPT_CHARS,
  MAX_SELECTOR_CHARS,
  ProxyObject,
  requireHttpUrl,
  requireProxy,
  urlBody,
} from './input-fields.ts';
export { type MapInput, mapSite } from './map.ts';
export { PDF_TIMEOUT_MS, pdfFromHtml, pdfFromUrl } from './pdf.ts';
export { type ProxyRequest, proxyRefusal } from './proxy.ts';
export {
  PdfHtmlBody,
  PdfUrlBody,
  pdfUrlInput,
  ScreenshotBody,
  screenshotInput,
} from './render-input.ts';
export { type ScrapeInput, type ScrapeOptions, scrape } from './scrape.ts';
export {
  batchInput,
  MAX_AGE_MS,
  PageScrapeOptions,
  pageScrapeOptions,
  ScrapeBatchBody,
  ScrapeSingleBody,
  scrapeFields,
  scrapeInput,
} from './scrape-input.ts';
export { scrapeWithScreenshot } from './scrape-screenshot.ts';
export { screenshot } from './screenshot.ts';
export {
  normaliseSearchInput,
  type SearchInput,
  search,
  searchItems,
  searchQuery,
} from './search.ts';
export { searchWithPages } from './search-pages.ts';
export { type SequenceInput, sequence } from './sequence.ts';
export { SequenceBody, sequenceInput } from './sequence-input.ts';
export {
  CRAWL_MAX_DELAY_MS,
  CRAWL_MAX_DEPTH,
  CRAWL_MAX_LIMIT,
  CrawlFields,
  crawlSettings,
  MAP_MAX_SEARCH_CHARS,
  MapBody,
  mapInput,
  Patterns,
} from './site-input.ts';
