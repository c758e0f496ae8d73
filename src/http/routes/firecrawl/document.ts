import { microsToUsd, usdToMicros } from '../../../billing/index.ts';
import type {
  ChangeTracking,
  FetchResult,
  ListingItem,
  ScreenshotResult,
} from '../../../contract/index.ts';

/** Firecrawl's Document: a native result (and screenshot) as Firecrawl's clients read it. */
export interface FirecrawlDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  /** Not Firecrawl's: the native listing format, served under its own name. */
  listing?: ListingItem[];
  screenshot?: string;
  summary?: string;
  json?: unknown;
  changeTracking?: ChangeTracking;
  metadata: Record<string, unknown>;
  warning?: string;
}

/**
 * A native result as Firecrawl's Document. Its `proxyUsed` is Firecrawl's name for the rung that
 * answered; `cost` and the native `method` ride in metadata (Firecrawl's index signature allows them).
 */
export function toDocument(
  result: FetchResult,
  formats: ReadonlySet<string>,
  shot?: ScreenshotResult,
): FirecrawlDocument {
  const doc: FirecrawlDocument = { metadata: {} };
  if (formats.has('markdown') && result.markdown !== undefined) doc.markdown = result.markdown;
  if (formats.has('html') && result.html !== undefined) doc.html = result.html;
  if (formats.has('rawHtml') && result.rawHtml !== undefined) doc.rawHtml = result.rawHtml;
  if (formats.has('links') && result.links !== undefined) doc.links = result.links;
  if (formats.has('listing') && result.listing !== undefined) doc.listing = result.listing;
  if (formats.has('summary') && result.content !== undefined) doc.summary = result.content;
  if (formats.has('json') && result.json !== undefined) doc.json = result.json;
  if (formats.has('changeTracking') && result.changeTracking)
    doc.changeTracking = result.changeTracking;
  if (shot?.success && shot.url) doc.screenshot = shot.url;
  else if (shot) doc.warning = `screenshot failed: ${shot.error ?? 'unknown error'}`;
  const m = result.metadata;
  doc.metadata = {
    ...(m?.title ? { title: m.title } : {}),
    ...(m?.description ? { description: m.description } : {}),
    ...(m?.canonicalUrl ? { canonicalUrl: m.canonicalUrl } : {}),
    sourceURL: result.url,
    url: m?.finalUrl || result.url,
    statusCode: result.statusCode,
    ...(m?.contentType ? { contentType: m.contentType } : {}),
    ...(result.cacheState ? { cacheState: result.cacheState } : {}),
    ...(result.cachedAt ? { cachedAt: result.cachedAt } : {}),
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.method
      ? {
          proxyUsed: result.method === 'browser-stealth' ? 'stealth' : 'basic',
          method: result.method,
        }
      : {}),
    cost: microsToUsd(usdToMicros(result.cost) + usdToMicros(shot?.cost ?? 0)),
  };
  return doc;
}
