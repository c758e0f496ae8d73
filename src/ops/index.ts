export type { OpContext, Services } from './context.ts';
export { scrape, type ScrapeInput, type ScrapeOptions } from './scrape.ts';
export { PAGE_FORMATS, type PageFormat } from './page-formats.ts';
export { scrapeBatch, batchItems, type BatchInput } from './batch.ts';
export { sequence, type SequenceInput } from './sequence.ts';
export { screenshot } from './screenshot.ts';
export { pdfFromHtml, pdfFromUrl, PDF_TIMEOUT_MS } from './pdf.ts';
export { openArtifact } from './files.ts';
export { proxyRefusal, type ProxyRequest } from './proxy.ts';
export {
  search,
  searchQuery,
  searchItems,
  normaliseSearchInput,
  SearchInputError,
  type SearchInput,
} from './search.ts';
export { extractAcross, type ExtractInput } from './extract.ts';
export { searchWithPages } from './search-pages.ts';
export { mapSite } from './map.ts';
export { stealthPageFetcher } from './stealth-page.ts';
export { crawlPage, type CrawlSettings, type CrawlPageInput } from './crawl.ts';
