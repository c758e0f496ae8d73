export { browse, type Opened } from './browse.ts';
export type { PageContext, PageServices } from './context.ts';
export { PageConverter } from './converter.ts';
export { PAGE_FORMATS, type PageFormat } from './formats.ts';
export { pageContentThreads } from './http-answer.ts';
export { acquirePage, actionsRefusal, methodsFor, type PageVisit } from './ladder.ts';
export {
  type LinksObserver,
  type PageOutputOptions,
  pageOutputs,
  UnreadablePdfError,
} from './outputs.ts';
export { BlockedPageError, type DocumentState, settledContent, trackDocument } from './settle.ts';
export { stealthSerpFetcher } from './stealth-serp-fetcher.ts';
