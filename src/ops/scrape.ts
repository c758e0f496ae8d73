import { decodeBody, FetchFailure, type HttpResponse } from '../acquire/index.ts';
import { fetchCost, microsToUsd, pdfOcrCost } from '../billing/index.ts';
import type { OutputFormat, PdfStrategy } from '../content/index.ts';
import type { OpContext } from './context.ts';

export interface ScrapeOptions {
  type?: OutputFormat;
  onlyMainContent?: boolean;
  extractMetadata?: boolean;
  /** How PDFs are read: `ocr` (default, as the spec says), `local` text layer only, `auto`. */
  pdfStrategy?: PdfStrategy;
}

export interface ScrapeInput extends ScrapeOptions {
  url: string;
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

function failure(url: string, err: unknown, statusCode = 0): ScrapeResult {
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

interface Rendered {
  page: Omit<ScrapeResult, 'timestamp' | 'cost'>;
  /** PDF pages read by OCR, billed on top of the fetch. */
  ocrPages: number;
}

async function render(res: HttpResponse, input: Required<ScrapeInput>, ctx: OpContext): Promise<Rendered> {
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
    const pdf = await ctx.services.content.pdf(res.body, { strategy: input.pdfStrategy, maxPages: config.pdfMaxPages, timeoutMs: config.ocrTimeoutMs, signal: ctx.signal });
    if (!pdf.text) throw new FetchFailure('unsupported-content', `the PDF has no readable text with pdfStrategy "${input.pdfStrategy}"`, res.statusCode);
    const page = { ...base, [input.type]: pdf.text, ...(input.extractMetadata ? { metadata: meta({ title: pdf.title, description: '', canonicalUrl: '' }) } : {}) };
    return { page, ocrPages: pdf.ocrPages };
  }
  const { text } = decodeBody(res.body, contentType, kind === 'html');
  if (kind === 'text') {
    return { page: { ...base, [input.type]: text, ...(input.extractMetadata ? { metadata: meta() } : {}) }, ocrPages: 0 };
  }
  const out = await ctx.services.content.convert(
    { html: text, url: res.url, format: input.type, onlyMainContent: input.onlyMainContent },
    ctx.signal,
  );
  return { page: { ...base, [input.type]: out.content, ...(input.extractMetadata ? { metadata: meta(out.metadata) } : {}) }, ocrPages: 0 };
}

/** Fetches one URL over HTTP and converts it. Never throws for a page's fault: that is a failed result. */
export async function scrape(input: ScrapeInput, ctx: OpContext): Promise<ScrapeResult> {
  const full: Required<ScrapeInput> = {
    url: input.url,
    type: input.type ?? 'markdown',
    onlyMainContent: input.onlyMainContent ?? true,
    extractMetadata: input.extractMetadata ?? false,
    pdfStrategy: input.pdfStrategy ?? 'ocr',
  };
  let res: HttpResponse;
  try {
    res = await ctx.services.http.fetch(full.url, { signal: ctx.signal });
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    return failure(full.url, err);
  }
  if (res.statusCode >= 400) {
    return failure(full.url, new Error(`the page answered HTTP ${res.statusCode}`), res.statusCode);
  }
  try {
    const { page, ocrPages } = await render(res, full, ctx);
    let cost = ctx.meter.charge('scrape', 1, fetchCost());
    if (ocrPages > 0) cost += ctx.meter.charge('pdf-ocr', ocrPages, pdfOcrCost(ocrPages));
    return { ...page, timestamp: new Date().toISOString(), cost: microsToUsd(cost) };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    return failure(full.url, err, res.statusCode);
  }
}
