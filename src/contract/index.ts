export { Cost, Timestamp } from './common.ts';
export { Action, Actions, SequenceStep } from './actions.ts';
export { AcquireMethod, BatchResult, FetchResult, ResultMetadata, type PageExtraFields } from './page.ts';
export { Breakpoint, SequenceResult } from './sequence.ts';
export { SearchQueryResult, SearchResult } from './search.ts';
export { MapResult, PdfResult, ScreenshotResult } from './outputs.ts';
