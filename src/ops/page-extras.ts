import { extractCost, summaryCost } from '../billing/index.ts';
import { callerText } from '../browser/index.ts';
import type { PageExtraFields } from '../contract/index.ts';
import {
  type ExtractRequest,
  extractPage,
  needsMarkdown,
  type SummaryRequest,
  summarise,
} from '../extract/index.ts';
import type { OpContext } from './context.ts';

/** What a page result may carry beyond its content: a summary and an extraction. */
export interface PageExtrasRequest {
  summary?: SummaryRequest;
  extract?: ExtractRequest;
}

export interface PageExtras {
  fields: PageExtraFields;
  /** Which extras succeeded: what chargeExtras charges for once the page is kept. */
  summarised: boolean;
  extracted: boolean;
  /** Why the extraction failed; the page result fails with it (its fetch is still charged). */
  error?: string;
}

/** Whether the extras read the page as markdown, so a page asked for as HTML is converted twice. */
export function extrasNeedMarkdown(request: PageExtrasRequest): boolean {
  return request.summary !== undefined || needsMarkdown(request.extract);
}

/**
 * Adds the summary and the extraction asked for to one page (a scrape result, a sequence
 * breakpoint, a crawled page). Throws SummaryError when the summary fails; a failed extraction
 * is `error`. Charges nothing: the caller knows whether the page is kept (chargeExtras).
 */
export async function pageExtras(
  request: PageExtrasRequest,
  page: { url: string; markdown: string; html?: string },
  ctx: OpContext,
): Promise<PageExtras> {
  const { config } = ctx.services;
  const fields: PageExtraFields = {};
  if (request.summary) {
    const summary = await summarise(
      config,
      { query: request.summary.query, url: page.url, markdown: page.markdown },
      ctx.signal,
    );
    fields.content = summary.text;
    fields.summarizer = summary.summarizer;
  }
  const summarised = request.summary !== undefined;
  if (!request.extract) return { fields, summarised, extracted: false };
  const out = await extractPage(config, ctx.services.content, request.extract, page, {
    key: ctx.userId,
    signal: ctx.signal,
  });
  if (out.json !== undefined) fields.json = out.json;
  if (out.warning !== undefined) fields.warning = out.warning;
  if (out.finishReason !== undefined) fields.finishReason = out.finishReason;
  return {
    fields,
    summarised,
    extracted: out.llmUsed,
    ...(out.error !== undefined ? { error: out.error } : {}),
  };
}

/** The extras of a run of pages up to the first that failed, and what those kept are charged for. */
export interface KeptExtras {
  /** One per page before the failure (all of them without one). */
  extras: PageExtras[];
  failure?: { index: number; error: string };
  summaries: number;
  extractions: number;
}

/**
 * Adds the extras to several pages at once (a sequence's breakpoints), keeping those before the
 * first page whose summary or extraction failed: for runs where a failure ends the run there.
 */
export async function extrasUntilFailure(
  request: PageExtrasRequest,
  pages: Array<{ url: string; markdown: string; html?: string }>,
  ctx: OpContext,
): Promise<KeptExtras> {
  const settled = await Promise.allSettled(pages.map((page) => pageExtras(request, page, ctx)));
  if (ctx.signal.aborted) throw ctx.signal.reason;
  const kept: KeptExtras = { extras: [], summaries: 0, extractions: 0 };
  for (const [index, outcome] of settled.entries()) {
    const error = outcome.status === 'rejected' ? callerText(outcome.reason) : outcome.value.error;
    if (error !== undefined) return { ...kept, failure: { index, error } };
    const extras = (outcome as PromiseFulfilledResult<PageExtras>).value;
    kept.extras.push(extras);
    kept.summaries += Number(extras.summarised);
    kept.extractions += Number(extras.extracted);
  }
  return kept;
}

/** Charges the extras of the pages kept: `summaries` pages summarised and `extractions` pages extracted by the LLM. */
export function chargeExtras(ctx: OpContext, summaries: number, extractions: number): number {
  return (
    ctx.meter.charge('summary', summaries, summaryCost(summaries)) +
    ctx.meter.charge('extract', extractions, extractCost(extractions))
  );
}

/** The extras' fields for a page result; a failed extraction fails the page, naming why. */
export function extrasResult(
  extras: PageExtras,
): PageExtraFields & { success?: false; error?: string } {
  return {
    ...extras.fields,
    ...(extras.error !== undefined ? { success: false as const, error: extras.error } : {}),
  };
}
