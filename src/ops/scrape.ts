import { decodeBody, detectBlock, FetchFailure, needsJavaScript, type HttpResponse, type ProxyRoute } from '../acquire/index.ts';
import { BrowserBusyError, type Action } from '../browser/index.ts';
import { fetchCost, microsToUsd, pdfOcrCost } from '../billing/index.ts';
import type { OutputFormat, PdfStrategy, SummaryRequest } from '../content/index.ts';
import type { ExtractRequest } from '../extract/index.ts';
import { countBlock } from '../metrics/index.ts';
import { BlockedPageError, browse, settledContent } from './browse.ts';
import type { OpContext } from './context.ts';
import { chargeExtras, extrasNeedMarkdown, extrasResult, pageExtras, type PageExtraFields } from './page-extras.ts';
import { convertFormats, textFormats, type PageFormat } from './page-formats.ts';
import { proxyRoute, type ProxyRequest } from './proxy.ts';

export interface ScrapeOptions {
  type?: OutputFormat;
  onlyMainContent?: boolean;
  extractMetadata?: boolean;
  /** How PDFs are read: `ocr` (default, as the spec says), `local` text layer only, `auto`. */
  pdfStrategy?: PdfStrategy;
  /** An instruction about the page: the LLM's answer (without an LLM, the most relevant passages) becomes `content`. */
  summary?: SummaryRequest;
  /** Structured extraction (JSON Schema for the LLM, or CSS selectors); its object becomes `json`. */
  extract?: ExtractRequest;
  /** Geo-targeted request: HTTP fetches and browser pages leave through that country's proxy. */
  proxy?: ProxyRequest;
  /** Several formats in one call, instead of `type`'s one. */
  formats?: PageFormat[];
  /** CSS selectors of the elements to keep / to drop before conversion. */
  includeTags?: string[];
  excludeTags?: string[];
}

export interface ScrapeInput extends ScrapeOptions {
  url: string;
  /** Browser actions run after load; when given the HTTP path is skipped. */
  actions?: Action[];
}

type FullInput = Required<Omit<ScrapeInput, 'actions' | 'summary' | 'extract' | 'proxy' | 'formats' | 'includeTags' | 'excludeTags'>> &
  Pick<ScrapeInput, 'formats' | 'includeTags' | 'excludeTags'> & { actions: Action[]; summary?: SummaryRequest; extract?: ExtractRequest; route?: ProxyRoute; onLinks?: LinksObserver };

/** Receives the absolute links of a converted HTML page (a crawl follows them without parsing the page again). */
export type LinksObserver = (links: string[]) => void;

export interface PageMetadataResult {
  title: string;
  description: string;
  canonicalUrl: string;
  finalUrl: string;
  contentType: string;
  contentLength: number;
}

export interface ScrapeResult extends PageExtraFields {
  url: string;
  success: boolean;
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  statusCode: number;
  metadata?: PageMetadataResult;
  timestamp: string;
  cost: number;
  error?: string;
}

type BodyKind = 'html' | 'text' | 'pdf' | 'binary';

const TEXT_TYPES = /^(text\/|application\/(json|ld\+json|xml|javascript|x-javascript|ecmascript|rss\+xml|atom\+xml|x-ndjson|yaml|x-yaml|toml|csv)|[\w.-]+\/[\w.-]+\+(json|xml))/;

function bodyKind(contentType: string, body: Buffer): BodyKind {
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'application/pdf' || body.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (TEXT_TYPES.test(mime)) return 'text';
  if (mime && mime !== 'application/octet-stream') return 'binary';
  // No usable type: look at the bytes, as a browser would.
  const head = body.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body|title|p|div)[\s>]/.test(head)) return 'html';
  return head.includes('\u0000') ? 'binary' : 'text';
}

export function failure(url: string, err: unknown, statusCode = 0): ScrapeResult {
  const message = err instanceof Error ? err.message : String(err);
  return {
    url,
    success: false,
    statusCode: err instanceof FetchFailure && err.statusCode ? err.statusCode : statusCode,
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

interface Rendered {
  page: Omit<ScrapeResult, 'timestamp' | 'cost'>;
  /** PDF pages read by OCR, billed on top of the fetch. */
  ocrPages: number;
  /** What a summary is written from: the page as markdown whatever `type` asked for. */
  markdown: string;
  /** The page's HTML, for selector extraction; absent for text and PDF pages. */
  html?: string;
}

async function render(res: HttpResponse, input: FullInput, ctx: OpContext): Promise<Rendered> {
  const contentType = res.headers['content-type'] ?? '';
  const kind = bodyKind(contentType, res.body);
  if (kind === 'binary') {
    throw new FetchFailure('unsupported-content', `cannot convert content of type ${contentType.split(';')[0]} to ${input.type}`, res.statusCode);
  }
  const base = { url: input.url, success: true, statusCode: res.statusCode };
  const meta = (m?: { title: string; description: string; canonicalUrl: string }): PageMetadataResult => ({
    title: m?.title ?? '',
    description: m?.description ?? '',
    canonicalUrl: m?.canonicalUrl ?? '',
    finalUrl: res.url,
    contentType,
    contentLength: res.body.length,
  });
  if (kind === 'pdf') {
    const { config } = ctx.services;
    const pdf = await ctx.services.content.pdf(res.body, { strategy: input.pdfStrategy, maxPages: config.pdfMaxPages, signal: ctx.signal });
    if (!pdf.text) throw new UnreadablePdfError(`the PDF has no readable text with pdfStrategy "${input.pdfStrategy}"`, res.statusCode, pdf.ocrPages);
    const page = { ...base, ...textFormats(pdf.text, input), ...(input.extractMetadata ? { metadata: meta({ title: pdf.title, description: '', canonicalUrl: '' }) } : {}) };
    return { page, ocrPages: pdf.ocrPages, markdown: pdf.text };
  }
  const { text } = decodeBody(res.body, contentType, kind === 'html');
  if (kind === 'text') {
    return { page: { ...base, ...textFormats(text, input), ...(input.extractMetadata ? { metadata: meta() } : {}) }, ocrPages: 0, markdown: text };
  }
  const out = await convertPage(text, res.url, input, ctx);
  return { page: { ...base, ...out.fields, ...(input.extractMetadata ? { metadata: meta(out.metadata) } : {}) }, ocrPages: 0, markdown: out.markdown, html: text };
}

/**
 * Converts HTML to the asked formats. A summary or an LLM extraction reads markdown whatever the
 * formats, so markdown is made for them too.
 */
async function convertPage(html: string, url: string, input: FullInput, ctx: OpContext) {
  const { type, formats, onlyMainContent, includeTags, excludeTags } = input;
  const out = await convertFormats(html, url, { type, formats, onlyMainContent, includeTags, excludeTags, needsMarkdown: extrasNeedMarkdown(input) }, ctx);
  input.onLinks?.(out.links);
  return out;
}

/** Converts HTML a browser rendered, like an HTTP page. */
async function browserScrape(input: FullInput, ctx: OpContext): Promise<ScrapeResult> {
  try {
    const { value } = await browse({ url: input.url, actions: input.actions, proxy: input.route }, ctx, async (opened) => {
      const { page } = opened;
      // Actions can lead to a wall of their own (a form that answers with a captcha).
      const html = input.actions.length > 0 ? await settledContent(page, opened) : opened.html;
      return { html, finalUrl: page.url(), statusCode: opened.statusCode() };
    });
    if (value.statusCode >= 400) return failure(input.url, new Error(`the page answered HTTP ${value.statusCode}`), value.statusCode);
    const out = await convertPage(value.html, value.finalUrl, input, ctx);
    const extras = await pageExtras(input, { url: value.finalUrl, markdown: out.markdown, html: value.html }, ctx);
    const metadata: PageMetadataResult = {
      title: out.metadata.title,
      description: out.metadata.description,
      canonicalUrl: out.metadata.canonicalUrl,
      finalUrl: value.finalUrl,
      contentType: 'text/html; charset=utf-8',
      contentLength: Buffer.byteLength(value.html),
    };
    const cost = ctx.meter.charge('scrape', 1, fetchCost()) + chargeExtras(ctx, Number(extras.summarised), Number(extras.extracted));
    return {
      url: input.url,
      success: true,
      statusCode: value.statusCode,
      ...out.fields,
      ...(input.extractMetadata ? { metadata } : {}),
      ...extrasResult(extras),
      timestamp: new Date().toISOString(),
      cost: microsToUsd(cost),
    };
  } catch (err) {
    if (ctx.signal.aborted || err instanceof BrowserBusyError) throw err;
    return failure(input.url, err, err instanceof BlockedPageError ? err.statusCode : 0);
  }
}

/** Why an HTTP answer is not the page and a browser should try: a challenge, a block, a script app. */
function escalationReason(res: HttpResponse): string | undefined {
  const contentType = res.headers['content-type'] ?? '';
  if (bodyKind(contentType, res.body) !== 'html') return undefined;
  const { text } = decodeBody(res.body, contentType, true);
  const verdict = detectBlock(text, res.statusCode);
  if (verdict) {
    countBlock('http', verdict);
    return verdict.reason;
  }
  return res.statusCode < 400 ? needsJavaScript(text) : undefined;
}

/**
 * Fetches one URL and converts it: over HTTP first, in the browser when the page needs JavaScript
 * or answers with a challenge, stealthily when the browser is blocked too (or straight to the
 * browser when actions are given). Never throws for a page's fault: that is a failed result.
 * Throws BrowserBusyError when no browser page frees up in time, for the caller to answer 429.
 */
export async function scrape(input: ScrapeInput, ctx: OpContext, onLinks?: LinksObserver): Promise<ScrapeResult> {
  let route: ProxyRoute | undefined;
  try {
    route = proxyRoute(ctx, input.proxy);
  } catch (err) {
    return failure(input.url, err);
  }
  const full: FullInput = {
    url: input.url,
    type: input.type ?? 'markdown',
    onlyMainContent: input.onlyMainContent ?? true,
    extractMetadata: input.extractMetadata ?? false,
    pdfStrategy: input.pdfStrategy ?? 'ocr',
    actions: input.actions ?? [],
    formats: input.formats,
    includeTags: input.includeTags,
    excludeTags: input.excludeTags,
    ...(input.summary ? { summary: input.summary } : {}),
    ...(input.extract ? { extract: input.extract } : {}),
    route,
    onLinks,
  };
  if (full.actions.length > 0) return browserScrape(full, ctx);
  let res: HttpResponse;
  try {
    res = await ctx.services.http.fetch(full.url, { signal: ctx.signal, proxy: route });
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    return failure(full.url, err);
  }
  const reason = escalationReason(res);
  if (reason) {
    ctx.log.debug({ url: full.url, reason }, 'escalating to the browser');
    return browserScrape(full, ctx);
  }
  if (res.statusCode >= 400) {
    return failure(full.url, new Error(`the page answered HTTP ${res.statusCode}`), res.statusCode);
  }
  try {
    const { page, ocrPages, markdown, html } = await render(res, full, ctx);
    const extras = await pageExtras(full, { url: res.url, markdown, html }, ctx);
    let cost = ctx.meter.charge('scrape', 1, fetchCost()) + chargeExtras(ctx, Number(extras.summarised), Number(extras.extracted));
    if (ocrPages > 0) cost += ctx.meter.charge('pdf-ocr', ocrPages, pdfOcrCost(ocrPages));
    return { ...page, ...extrasResult(extras), timestamp: new Date().toISOString(), cost: microsToUsd(cost) };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const failed = failure(full.url, err, res.statusCode);
    if (err instanceof UnreadablePdfError && err.ocrPages > 0) failed.cost = microsToUsd(ctx.meter.charge('pdf-ocr', err.ocrPages, pdfOcrCost(err.ocrPages)));
    return failed;
  }
}
