export { convertHtml } from './convert.ts';
export { extractiveSummary } from './extractive-summary.ts';
export { LISTING_LIMITS, type ListingItem } from './listing.ts';
export type { PdfStrategy } from './pdf.ts';
export { ContentDeadlineError, ContentPool, type ContentRun } from './pool.ts';
export { type Selectors, selectorProblem } from './select.ts';
export { SelectorError, selectTags, type TagSelection } from './select-tags.ts';
export type { ConvertOutput, OutputFormat, PageMetadata } from './types.ts';
