import { type AcquiredPage, FetchFailure } from '../acquire/index.ts';
import { fetchCost, microsToUsd, pdfOcrCost } from '../billing/index.ts';
import { callerText } from '../browser/index.ts';
import type { AcquireMethod, FetchResult } from '../contract/index.ts';
import {
  type PageConverter,
  type PageOutputOptions,
  pageOutputs,
  UnreadablePdfError,
} from '../page/index.ts';
import type { OpContext } from './context.ts';
import {
  chargeExtras,
  extrasNeedMarkdown,
  extrasResult,
  type PageExtrasRequest,
  pageExtras,
} from './page-extras.ts';

/** What a caller asks to get out of a page (scrape and each sequence breakpoint): outputs and extras. */
export type PageResultOptions = Omit<PageOutputOptions, 'needsMarkdown'> & PageExtrasRequest;

export function failure(
  url: string,
  err: unknown,
  statusCode = 0,
  method?: AcquireMethod,
): FetchResult {
  const message = callerText(err);
  return {
    url,
    success: false,
    statusCode: err instanceof FetchFailure && err.statusCode ? err.statusCode : statusCode,
    ...(method ? { method } : {}),
    timestamp: new Date().toISOString(),
    cost: 0,
    error: message,
  };
}

/**
 * The one function from an acquired page to a scrape result: outputs, summary, extraction,
 * charges. Never throws for the page's fault: an error page, unconvertible content or a failed
 * summary is a failed result at cost 0 (OCR work done on an unreadable PDF is still charged).
 */
export async function pageResult(
  requestedUrl: string,
  page: AcquiredPage,
  opts: PageResultOptions,
  ctx: OpContext,
  converter: PageConverter,
): Promise<FetchResult> {
  if (page.statusCode >= 400)
    return failure(
      requestedUrl,
      new Error(`the page answered HTTP ${page.statusCode}`),
      page.statusCode,
      page.method,
    );
  try {
    const { fields, ocrPages, markdown, html } = await pageOutputs(
      page,
      { ...opts, needsMarkdown: extrasNeedMarkdown(opts) },
      ctx,
      converter,
    );
    const extras = await pageExtras(opts, { url: page.url, markdown, html }, ctx);
    let cost =
      ctx.meter.charge('scrape', 1, fetchCost()) +
      chargeExtras(ctx, Number(extras.summarised), Number(extras.extracted));
    if (ocrPages > 0) cost += ctx.meter.charge('pdf-ocr', ocrPages, pdfOcrCost(ocrPages));
    return {
      url: requestedUrl,
      success: true,
      statusCode: page.statusCode,
      ...fields,
      ...extrasResult(extras),
      method: page.method,
      timestamp: new Date().toISOString(),
      cost: microsToUsd(cost),
    };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const failed = failure(requestedUrl, err, page.statusCode, page.method);
    if (err instanceof UnreadablePdfError && err.ocrPages > 0)
      failed.cost = microsToUsd(
        ctx.meter.charge('pdf-ocr', err.ocrPages, pdfOcrCost(err.ocrPages)),
      );
    return failed;
  }
}
