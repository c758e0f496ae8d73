export { convertHtml } from './convert.ts';
export { extractiveSummary } from './extractive-summary.ts';
export { extractListing, LISTING_LIMITS, type ListingItem } from './listing.ts';
export { type SelectedValue, type Selectors, selectFields, selectorProblem } from './select.ts';
export { SelectorError, selectTags, type TagSelection } from './select-tags.ts';
export type {
  ConvertInput,
  ConvertOutput,
  ListingInput,
  OutputFormat,
  PageMetadata,
} from './types.ts';
