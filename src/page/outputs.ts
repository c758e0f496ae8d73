import { type AcquiredPage, FetchFailure } from '../acquire/index.ts';
import { fetchCost, microsToUsd, pdfOcrCost } from '../billing/index.ts';
import { callerText } from '../browser/index.ts';
import type {
  ConvertOutput,
  OutputFormat,
  PageMetadata,
  PdfStrategy,
  SummaryRequest,
} from '../content/index.ts';
import type { AcquireMethod, FetchResult, ResultMetadata } from '../contract/index.ts';
import type { ExtractRequest } from '../extract/index.ts';
import type { OpContext } from './context.ts';
import { chargeExtras, extrasNeedMarkdown, extrasResult, pageExtras } from './page-extras.ts';
import { convertFormats, type PageFields, type PageFormat, textFormats } from './page-formats.ts';

/** What a caller asks to get out of a page (scrape and each sequence breakpoint). */
export interface PageOutputOptions {
  type: OutputFormat;
  onlyMainContent: boolean;
  extractMetadata: boolean;
  /** How PDFs are read: `ocr` (default, as the spec says), `local` text layer only, `auto`. */
  pdfStrategy: PdfStrategy;
  /** Several formats in one call, instead of `type`'s one. */
  formats?: PageFormat[];
  /** CSS selectors of the elements to keep / to drop before conversion. */
  includeTags?: string[];
  excludeTags?: string[];
  /** An instruction about the page: the LLM's answer (without an LLM, the most relevant passages) becomes `content`. */
  summary?: SummaryRequest;
  /** Structured extraction (JSON Schema for the LLM, or CSS selectors); its object becomes `json`. */
  extract?: ExtractRequest;
  /** Receives the page's absolute links (a crawl follows them without parsing the page again). */
  onLinks?: LinksObserver;
}

/** Receives the absolute links of a converted HTML page. */
export type LinksObserver = (links: string[]) => void;

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

  convert(
    html: string,
    url: string,
    format: OutputFormat,
    onlyMainContent: boolean,
  ): Promise<ConvertOutput> {
    const key = `${format}|${onlyMainContent}|${url}`;
    const hit = this.#memo.get(key);
    if (hit?.html === html) return hit.out;
    const out = this.#ctx.services.content.convert(
      { html, url, format, onlyMainContent },
      this.#ctx.signal,
    );
    this.#memo.set(key, { html, out });
    return out;
  }

  /** A conversion of `html` made elsewhere (with the judgement of an HTTP answer), kept for reuse. */
  adopt(
    html: string,
    url: string,
    format: OutputFormat,
    onlyMainContent: boolean,
    out: ConvertOutput,
  ): void {
    this.#memo.set(`${format}|${onlyMainContent}|${url}`, { html, out: Promise.resolve(out) });
  }
}

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
 * A PDF in which nothing readable was found. Pages that went through OCR are still charged: the
 * work was done, and a free failure would make OCR free to abuse with pages built to be blank.
 */
class UnreadablePdfError extends FetchFailure {
  readonly ocrPages: number;

  constructor(message: string, statusCode: number, ocrPages: number) {
    super('unsupported-content', message, statusCode);
    this.ocrPages = ocrPages;
  }
}

/** A page's outputs before summary, extraction and charges. */
export interface PageOutputs {
  /** The asked formats' content and, when asked, metadata. */
  fields: PageFields & { metadata?: ResultMetadata };
  /** PDF pages read by OCR, billed on top of the fetch. */
  ocrPages: number;
  /** What a summary or an LLM extraction reads: the page as markdown whatever the formats. */
  markdown: string;
  /** The page's HTML, for selector extraction; absent for text and PDF pages. */
  html?: string;
}

function metadataOf(page: AcquiredPage, found?: Partial<PageMetadata>): ResultMetadata {
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
export async function pageOutputs(
  page: AcquiredPage,
  opts: PageOutputOptions,
  ctx: OpContext,
  converter: PageConverter,
): Promise<PageOutputs> {
  const meta = (found?: Partial<PageMetadata>) =>
    opts.extractMetadata ? { metadata: metadataOf(page, found) } : {};
  switch (page.kind) {
    case 'binary':
      throw new FetchFailure(
        'unsupported-content',
        `cannot convert binary content (served as ${page.contentType.split(';')[0]!.trim() || 'no type'}) to ${opts.type}`,
        page.statusCode,
      );
    case 'pdf': {
      const { config } = ctx.services;
      const pdf = await ctx.services.content.pdf(page.body, {
        strategy: opts.pdfStrategy,
        maxPages: config.pdfMaxPages,
        key: ctx.userId,
        signal: ctx.signal,
      });
      if (!pdf.text)
        throw new UnreadablePdfError(
          `the PDF has no readable text with pdfStrategy "${opts.pdfStrategy}"`,
          page.statusCode,
          pdf.ocrPages,
        );
      return {
        fields: { ...textFormats(pdf.text, opts), ...meta({ title: pdf.title }) },
        ocrPages: pdf.ocrPages,
        markdown: pdf.text,
      };
    }
    case 'text': {
      const text = page.text ?? '';
      return { fields: { ...textFormats(text, opts), ...meta() }, ocrPages: 0, markdown: text };
    }
    case 'html': {
      const html = page.text ?? '';
      const { type, formats, onlyMainContent, includeTags, excludeTags } = opts;
      const needsMarkdown = extrasNeedMarkdown(opts);
      const out = await convertFormats(
        html,
        page.url,
        { type, formats, onlyMainContent, includeTags, excludeTags, needsMarkdown },
        (...args) => converter.convert(...args),
        (selection) => ctx.services.content.selectTags(selection, ctx.signal),
      );
      opts.onLinks?.(out.links);
      return {
        fields: { ...out.fields, ...meta(out.metadata) },
        ocrPages: 0,
        markdown: out.markdown,
        html,
      };
    }
  }
}

/**
 * The one function from an acquired page to a scrape result: outputs, summary, extraction,
 * charges. Never throws for the page's fault: an error page, unconvertible content or a failed
 * summary is a failed result at cost 0 (OCR work done on an unreadable PDF is still charged).
 */
export async function pageResult(
  requestedUrl: string,
  page: AcquiredPage,
  opts: PageOutputOptions,
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
    const { fields, ocrPages, markdown, html } = await pageOutputs(page, opts, ctx, converter);
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
