import { FetchFailure, type AcquiredPage, type AcquireMethod } from '../acquire/index.ts';
import { fetchCost, microsToUsd, pdfOcrCost, summaryCost } from '../billing/index.ts';
import { summarise, type ConvertOutput, type OutputFormat, type PageMetadata, type PdfStrategy, type SummaryRequest } from '../content/index.ts';
import type { OpContext } from './context.ts';

/** What a caller asks to get out of a page (scrape and each sequence breakpoint). */
export interface PageOutputOptions {
  type: OutputFormat;
  onlyMainContent: boolean;
  extractMetadata: boolean;
  /** How PDFs are read: `ocr` (default, as the spec says), `local` text layer only, `auto`. */
  pdfStrategy: PdfStrategy;
  /** An instruction for the LLM; its answer about the page's markdown becomes `content`. */
  summary?: SummaryRequest;
}

export interface PageMetadataResult {
  title: string;
  description: string;
  canonicalUrl: string;
  finalUrl: string;
  contentType: string;
  contentLength: number;
}

export interface ScrapeResult {
  url: string;
  success: boolean;
  markdown?: string;
  html?: string;
  statusCode: number;
  metadata?: PageMetadataResult;
  content?: string;
  /** How the page was acquired; absent when nothing was. */
  method?: AcquireMethod;
  timestamp: string;
  cost: number;
  error?: string;
}

/**
 * Converts HTML for one request, each (page, format, main-content choice) once: the render
 * decision reads the page's main content as markdown, and the result reuses that conversion
 * when it asks for the same.
 */
export class PageConverter {
  readonly #ctx: OpContext;
  readonly #memo = new Map<string, { html: string; out: Promise<ConvertOutput> }>();

  constructor(ctx: OpContext) {
    this.#ctx = ctx;
  }

  convert(html: string, url: string, format: OutputFormat, onlyMainContent: boolean): Promise<ConvertOutput> {
    const key = `${format}|${onlyMainContent}|${url}`;
    const hit = this.#memo.get(key);
    if (hit?.html === html) return hit.out;
    const out = this.#ctx.services.content.convert({ html, url, format, onlyMainContent }, this.#ctx.signal);
    this.#memo.set(key, { html, out });
    return out;
  }
}

export function failure(url: string, err: unknown, statusCode = 0, method?: AcquireMethod): ScrapeResult {
  const message = err instanceof Error ? err.message : String(err);
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

/** A page's outputs before summary and charges. */
export interface RenderedPage {
  /** The asked format's content and, when asked, metadata. */
  fields: Partial<Record<OutputFormat, string>> & { metadata?: PageMetadataResult };
  /** PDF pages read by OCR, billed on top of the fetch. */
  ocrPages: number;
  /** What a summary is written from: the page as markdown whatever `type` asked for. */
  markdown: string;
}

function metadataOf(page: AcquiredPage, found?: Partial<PageMetadata>): PageMetadataResult {
  return {
    title: found?.title ?? '',
    description: found?.description ?? '',
    canonicalUrl: found?.canonicalUrl ?? '',
    finalUrl: page.url,
    contentType: page.contentType,
    contentLength: page.body.length,
  };
}

/**
 * Turns an acquired page into the asked outputs: PDF text, plain text, or converted HTML, with
 * metadata. An output added to scrape results (links, JSON) is added here.
 */
export async function renderPage(page: AcquiredPage, opts: PageOutputOptions, ctx: OpContext, converter: PageConverter): Promise<RenderedPage> {
  const meta = (found?: Partial<PageMetadata>) => (opts.extractMetadata ? { metadata: metadataOf(page, found) } : {});
  switch (page.kind) {
    case 'binary':
      throw new FetchFailure('unsupported-content', `cannot convert content of type ${page.contentType.split(';')[0]} to ${opts.type}`, page.statusCode);
    case 'pdf': {
      const { config } = ctx.services;
      const pdf = await ctx.services.content.pdf(page.body, { strategy: opts.pdfStrategy, maxPages: config.pdfMaxPages, timeoutMs: config.ocrTimeoutMs, signal: ctx.signal });
      if (!pdf.text) throw new FetchFailure('unsupported-content', `the PDF has no readable text with pdfStrategy "${opts.pdfStrategy}"`, page.statusCode);
      return { fields: { [opts.type]: pdf.text, ...meta({ title: pdf.title }) }, ocrPages: pdf.ocrPages, markdown: pdf.text };
    }
    case 'text': {
      const text = page.text ?? '';
      return { fields: { [opts.type]: text, ...meta() }, ocrPages: 0, markdown: text };
    }
    case 'html': {
      const html = page.text ?? '';
      const out = await converter.convert(html, page.url, opts.type, opts.onlyMainContent);
      // A summary is written from markdown whatever the format.
      const markdown = opts.summary && opts.type !== 'markdown' ? (await converter.convert(html, page.url, 'markdown', opts.onlyMainContent)).content : out.content;
      return { fields: { [opts.type]: out.content, ...meta(out.metadata) }, ocrPages: 0, markdown };
    }
  }
}

/**
 * The one function from an acquired page to a scrape result: outputs, summary, charges. Never
 * throws for the page's fault: an error page, unconvertible content or a failed summary is a
 * failed result at cost 0.
 */
export async function pageResult(requestedUrl: string, page: AcquiredPage, opts: PageOutputOptions, ctx: OpContext, converter: PageConverter): Promise<ScrapeResult> {
  if (page.statusCode >= 400) return failure(requestedUrl, new Error(`the page answered HTTP ${page.statusCode}`), page.statusCode, page.method);
  try {
    const { fields, ocrPages, markdown } = await renderPage(page, opts, ctx, converter);
    let summary: string | undefined;
    if (opts.summary) summary = await summarise(ctx.services.config.summary, { query: opts.summary.query, url: requestedUrl, markdown }, ctx.signal);
    let cost = ctx.meter.charge('scrape', 1, fetchCost());
    if (summary !== undefined) cost += ctx.meter.charge('summary', 1, summaryCost());
    if (ocrPages > 0) cost += ctx.meter.charge('pdf-ocr', ocrPages, pdfOcrCost(ocrPages));
    return {
      url: requestedUrl,
      success: true,
      statusCode: page.statusCode,
      ...fields,
      ...(summary !== undefined ? { content: summary } : {}),
      method: page.method,
      timestamp: new Date().toISOString(),
      cost: microsToUsd(cost),
    };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    return failure(requestedUrl, err, page.statusCode, page.method);
  }
}
