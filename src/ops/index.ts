export type { OpContext, Services } from './context.ts';
export { scrape, type ScrapeInput, type ScrapeOptions } from './scrape.ts';
export { PAGE_FORMATS, type PageFormat } from './page-formats.ts';
export { scrapeBatch, batchItems, summariseBatch, type BatchInput } from './batch.ts';
export { sequence, type SequenceInput } from './sequence.ts';
export { screenshot, type ScreenshotInput, type ScreenshotResult } from './screenshot.ts';
export { pdfFromHtml, pdfFromUrl, PDF_TIMEOUT_MS, type PdfOptions, type PdfResult } from './pdf.ts';
export { openArtifact } from './files.ts';
export { proxyRefusal, type ProxyRequest } from './proxy.ts';
export {
  search,
  searchQuery,
  searchItems,
  summariseSearch,
  normaliseSearchInput,
  SearchInputError,
  DEFAULT_SEARCH_LIMIT,
  type SearchInput,
  type SearchOptions,
  type SearchQueryInput,
  type SearchQueryResult,
  type SearchResult,
} from './search.ts';
export { extractAcross, type ExtractInput, type ExtractResult, type ExtractPageOutcome } from './extract.ts';
export { searchWithPages, type SearchWithPages } from './search-pages.ts';
export { mapSite, type MapInput, type MapResult } from './map.ts';
export { stealthPageFetcher, type RenderedPage } from './stealth-page.ts';
export { crawlPage, type CrawlSettings, type CrawlPageInput, type CrawlPageResult, type CrawlPageOutcome, type DiscoveredPage, type SitemapMode } from './crawl.ts';
