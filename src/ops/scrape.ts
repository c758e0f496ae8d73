import { decodeBody, FetchFailure, type HttpResponse } from '../acquire/index.ts';
import { fetchCost, microsToUsd } from '../billing/index.ts';
import type { OutputFormat } from '../content/index.ts';
import type { OpContext } from './context.ts';

export interface ScrapeOptions {
  type?: OutputFormat;
  onlyMainContent?: boolean;
  extractMetadata?: boolean;
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

type BodyKind = 'html' | 'text' | 'binary';

const TEXT_TYPES = /^(text\/|application\/(json|ld\+json|xml|javascript|x-javascript|ecmascript|rss\+xml|atom\+xml|x-ndjson|yaml|x-yaml|toml|csv)|[\w.-]+\/[\w.-]+\+(json|xml))/;

function bodyKind(contentType: string, body: Buffer): BodyKind {
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
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

async function render(res: HttpResponse, input: Required<ScrapeInput>, ctx: OpContext): Promise<Omit<ScrapeResult, 'timestamp' | 'cost'>> {
  const contentType = res.headers['content-type'] ?? '';
  const kind = bodyKind(contentType, res.body);
  if (kind === 'binary') {
    throw new FetchFailure('unsupported-content', `cannot convert content of type ${contentType.split(';')[0]} to ${input.type}`, res.statusCode);
  }
  const { text } = decodeBody(res.body, contentType, kind === 'html');
  const base = { url: input.url, success: true, statusCode: res.statusCode };
  const meta = (m?: { title: string; description: string; canonicalUrl: string }): PageMetadataResult => ({
    title: m?.title ?? '',
    description: m?.description ?? '',
    canonicalUrl: m?.canonicalUrl ?? '',
    finalUrl: res.url,
    contentType,
    contentLength: res.body.length,
  });
  if (kind === 'text') {
    return { ...base, [input.type]: text, ...(input.extractMetadata ? { metadata: meta() } : {}) };
  }
  const out = await ctx.services.content.convert(
    { html: text, url: res.url, format: input.type, onlyMainContent: input.onlyMainContent },
    ctx.signal,
  );
  return { ...base, [input.type]: out.content, ...(input.extractMetadata ? { metadata: meta(out.metadata) } : {}) };
}

/** Fetches one URL over HTTP and converts it. Never throws for a page's fault: that is a failed result. */
export async function scrape(input: ScrapeInput, ctx: OpContext): Promise<ScrapeResult> {
  const full: Required<ScrapeInput> = {
    url: input.url,
    type: input.type ?? 'markdown',
    onlyMainContent: input.onlyMainContent ?? true,
    extractMetadata: input.extractMetadata ?? false,
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
    const page = await render(res, full, ctx);
    const cost = ctx.meter.charge('scrape', 1, fetchCost());
    return { ...page, timestamp: new Date().toISOString(), cost: microsToUsd(cost) };
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    return failure(full.url, err, res.statusCode);
  }
}
