import type { ProxyRoute } from '../acquire/index.ts';
import { BlockedPageError, BrowserBusyError, type Action } from '../browser/index.ts';
import type { OutputFormat, PdfStrategy, SummaryRequest } from '../content/index.ts';
import { acquirePage } from './acquire-page.ts';
import type { OpContext } from './context.ts';
import { failure, PageConverter, pageResult, type PageOutputOptions, type ScrapeResult } from './page-result.ts';
import { proxyRoute, type ProxyRequest } from './proxy.ts';

export { failure, type PageMetadataResult, type ScrapeResult } from './page-result.ts';

export interface ScrapeOptions {
  type?: OutputFormat;
  onlyMainContent?: boolean;
  extractMetadata?: boolean;
  /** How PDFs are read: `ocr` (default, as the spec says), `local` text layer only, `auto`. */
  pdfStrategy?: PdfStrategy;
  /** An instruction for the LLM; its answer about the page's markdown becomes `content`. */
  summary?: SummaryRequest;
  /** Geo-targeted request: HTTP fetches and browser pages leave through that country's proxy. */
  proxy?: ProxyRequest;
}

export interface ScrapeInput extends ScrapeOptions {
  url: string;
  /** Browser actions run after load; when given the HTTP path is skipped. */
  actions?: Action[];
}

/**
 * Fetches one URL and converts it: acquirePage climbs the engine ladder (HTTP, browser,
 * browser-stealth) until the page's content is there, all within the page budget; pageResult
 * turns what it got into the result. Never throws for a page's fault: that is a failed result at
 * cost 0. Throws BrowserBusyError when no browser page frees up in time, for the caller to answer 429.
 */
export async function scrape(input: ScrapeInput, ctx: OpContext): Promise<ScrapeResult> {
  const deadline = Date.now() + ctx.services.config.pageBudgetMs;
  let route: ProxyRoute | undefined;
  try {
    route = proxyRoute(ctx, input.proxy);
  } catch (err) {
    return failure(input.url, err);
  }
  const opts: PageOutputOptions = {
    type: input.type ?? 'markdown',
    onlyMainContent: input.onlyMainContent ?? true,
    extractMetadata: input.extractMetadata ?? false,
    pdfStrategy: input.pdfStrategy ?? 'ocr',
    ...(input.summary ? { summary: input.summary } : {}),
  };
  const converter = new PageConverter(ctx);
  try {
    const page = await acquirePage({ url: input.url, actions: input.actions ?? [], proxy: route, deadline }, ctx, converter);
    return await pageResult(input.url, page, opts, ctx, converter);
  } catch (err) {
    if (ctx.signal.aborted || err instanceof BrowserBusyError) throw err;
    return failure(input.url, err, err instanceof BlockedPageError ? err.statusCode : 0);
  }
}
