export { ContentDeadlineError, type ContentRun, ContentThreads } from './content-threads.ts';
export type { ConvertOutput, OutputFormat, PageMetadata } from './convert/index.ts';
export {
  convertHtml,
  extractiveSummary,
  LISTING_LIMITS,
  type ListingItem,
  SelectorError,
  type Selectors,
  selectorProblem,
  selectTags,
  type TagSelection,
} from './convert/index.ts';
export type { PdfStrategy } from './pdf/index.ts';
