export { Action, Actions, SequenceStep } from './actions.ts';
export { Cost, Timestamp } from './common.ts';
export { MapResult, PdfResult, ScreenshotResult } from './outputs.ts';
export {
  AcquireMethod,
  BatchResult,
  BROWSER_RUNGS,
  ChangeTracking,
  FetchResult,
  ListingItem,
  MethodChoice,
  type PageExtraFields,
  ResultMetadata,
} from './page.ts';
export { SearchQueryResult, SearchResult } from './search.ts';
export { Breakpoint, SequenceResult } from './sequence.ts';
export { SCREENSHOT_VIEWPORT } from './viewport.ts';
