import { decodeBody, type HttpEngine, type HttpResponse } from '../acquire/index.ts';
import { BudgetedFetcher } from './budget.ts';
import { extractPageLinks } from './html.ts';
import { DEFAULT_LIMITS, type DiscoverLimits } from './limits.ts';
import { isPageUrl, normalizeUrl } from './normalize.ts';
import { drainQueue } from './pool.ts';
import { rankCandidates, type Candidate } from './rank.ts';
import { robotsSitemaps } from './robots.ts';
import { siteScope } from './scope.ts';
import { readSitemap } from './sitemap.ts';

export interface DiscoverInput {
  url: string;
  limit: number;
  search?: string;
  includeSubdomains: boolean;
  ignoreQueryParameters: boolean;
}

export interface DiscoverResult {
  links: string[];
  /** Distinct in-scope URLs found before ranking and the limit. */
  found: number;
  /** Why the start page could not be read, when it could not. */
  startError?: string;
  /** Every fetch or document that failed or was cut short, by URL. */
  failures: Map<string, string>;
  requests: number;
  bytes: number;
}

/** Where sites usually keep a sitemap when robots.txt does not say. */
const USUAL_SITEMAPS = ['/sitemap.xml', '/sitemap_index.xml', '/sitemap.xml.gz', '/sitemap.txt'];
const MAX_TEXT = 300;

interface SitemapJob {
  url: string;
  depth: number;
}

interface CrawlJob {
  url: string;
  depth: number;
}

function mediaType(headers: Record<string, string>): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

function declaredHtml(headers: Record<string, string>): boolean {
  const type = mediaType(headers);
  return type === 'text/html' || type === 'application/xhtml+xml';
}

function isHtml(res: HttpResponse): boolean {
  if (declaredHtml(res.headers)) return true;
  if (mediaType(res.headers)) return false;
  return /^\s*(<!doctype html|<html)/i.test(res.body.subarray(0, 256).toString('latin1'));
}

/**
 * Finds the URLs of a site through every door it offers: robots.txt's Sitemap lines, the usual
 * sitemap locations, sitemap indexes (bounded depth), gzip and text sitemaps, the RSS/Atom feeds
 * the start page announces, the start page's links and, when that is still fewer URLs than asked
 * for, a shallow crawl of same-site pages. Bounded by `limits` in time, requests and bytes.
 */
export async function discover(http: HttpEngine, input: DiscoverInput, signal: AbortSignal, limits: DiscoverLimits = DEFAULT_LIMITS): Promise<DiscoverResult> {
  const start = new URL(input.url);
  const inScope = siteScope(start, input.includeSubdomains);
  const fetcher = new BudgetedFetcher(http, limits, signal);
  const normOpts = { ignoreQuery: input.ignoreQueryParameters };
  const startUrl = normalizeUrl(input.url, undefined, normOpts)!.href;
  const found = new Map<string, string>();

  /** Keeps a URL when it is an in-scope page; answers its normalised form when kept. */
  const add = (raw: string, base: string | undefined, text = ''): string | undefined => {
    const url = normalizeUrl(raw, base, normOpts);
    if (!url || !inScope(url) || !isPageUrl(url)) return undefined;
    const href = url.href;
    const words = text.trim();
    const known = found.get(href);
    if (known === undefined) {
      if (found.size >= limits.maxCandidates) return undefined;
      found.set(href, words.slice(0, MAX_TEXT));
    } else if (words && known.length < MAX_TEXT && !known.includes(words)) {
      found.set(href, `${known} ${words}`.slice(0, MAX_TEXT));
    }
    return href;
  };

  const sitemapQueue: SitemapJob[] = [];
  const seenSitemaps = new Set<string>();
  const queueSitemap = (url: string, depth: number) => {
    const key = url.replace(/#.*$/, '');
    if (seenSitemaps.has(key) || seenSitemaps.size >= limits.maxSitemaps) return;
    seenSitemaps.add(key);
    sitemapQueue.push({ url: key, depth });
  };

  /** Reads a sitemap or feed; `counted` is how much of it the byte budget already holds. */
  const readListing = async (res: { url: string; body: AsyncIterable<Buffer> | Iterable<Buffer> }, counted: number, depth: number) => {
    let children = 0;
    const result = await readSitemap(res.body, {
      maxEntries: limits.maxEntriesPerSitemap,
      maxXmlDepth: limits.maxXmlDepth,
      maxBytes: Math.min(limits.maxSitemapBytes, fetcher.bytesLeft + counted),
      onPage: (e) => add(e.url, res.url, e.title),
      onChild: (child) => {
        if (depth >= limits.maxSitemapDepth) {
          fetcher.failures.set(child, `sitemap index nested deeper than ${limits.maxSitemapDepth} levels`);
          return;
        }
        if (++children > limits.maxChildrenPerIndex) {
          fetcher.failures.set(res.url, `index lists more than ${limits.maxChildrenPerIndex} sitemaps; the rest were not read`);
          return;
        }
        try {
          queueSitemap(new URL(child, res.url).href, depth + 1);
        } catch {
          fetcher.failures.set(child, 'not a URL');
        }
      },
    });
    // Inflated gzip bytes count against the map's byte budget too.
    fetcher.addBytes(Math.max(0, Math.max(result.read, result.bytes) - counted));
    if (result.stopped && result.kind !== 'html') fetcher.failures.set(res.url, `read in part: ${result.stopped}`);
  };

  // The start page and robots.txt are independent: ask for both at once.
  const robotsUrl = new URL('/robots.txt', start).href;
  const [page, robots] = await Promise.all([fetcher.get(start.href, limits.maxPageBytes), fetcher.get(robotsUrl, limits.maxPageBytes)]);

  const crawlQueue: CrawlJob[] = [];
  const seenPages = new Set<string>([startUrl]);
  const queuePage = (href: string, depth: number) => {
    if (depth > limits.maxCrawlDepth || seenPages.has(href)) return;
    seenPages.add(href);
    crawlQueue.push({ url: href, depth });
  };
  const readPage = (res: HttpResponse, depth: number) => {
    const { text } = decodeBody(res.body, res.headers['content-type'] ?? '', true);
    const parsed = extractPageLinks(text, res.url);
    for (const link of parsed.links) {
      const href = add(link.href, undefined, link.text);
      if (href) queuePage(href, depth + 1);
    }
    return parsed;
  };

  if (page) {
    // The start URL, and where it redirected to (a language or login-free landing page).
    if (inScope(new URL(page.url))) {
      add(startUrl, undefined);
      add(page.url, undefined);
    }
    if (isHtml(page)) {
      for (const feed of readPage(page, 0).feeds) queueSitemap(feed, 0);
    } else {
      // A sitemap or feed given as the start URL is read as one.
      seenSitemaps.add(start.href);
      await readListing({ url: page.url, body: [page.body] }, page.body.length, 0);
    }
  }

  const declared = robots && !isHtml(robots) ? robotsSitemaps(decodeBody(robots.body, robots.headers['content-type'] ?? '', false).text, robots.url) : [];
  for (const url of declared) queueSitemap(url, 0);
  for (const path of declared.length > 0 ? USUAL_SITEMAPS.slice(0, 1) : USUAL_SITEMAPS) queueSitemap(new URL(path, start).href, 0);

  await drainQueue(sitemapQueue, limits.concurrency, async (job) => {
    // Streamed: a 50 MB sitemap is parsed as it arrives rather than held whole.
    const res = await fetcher.open(job.url, limits.maxSitemapBytes);
    if (!res) return;
    try {
      if (!declaredHtml(res.headers)) await readListing(res, 0, job.depth);
    } finally {
      res.body.destroy();
    }
  });

  if (found.size < input.limit) {
    let crawled = 0;
    await drainQueue(crawlQueue, limits.concurrency, async (job) => {
      if (crawled >= limits.maxCrawlPages || (!input.search && found.size >= input.limit)) return;
      crawled++;
      const res = await fetcher.get(job.url, limits.maxPageBytes);
      if (res && isHtml(res) && inScope(new URL(res.url))) readPage(res, job.depth);
    });
  }

  const candidates: Candidate[] = [];
  for (const [url, text] of found) candidates.push({ url, text });
  return {
    links: rankCandidates(candidates, { search: input.search, startUrl, limit: input.limit }),
    found: found.size,
    ...(page ? {} : { startError: fetcher.failures.get(start.href) ?? 'could not be fetched' }),
    failures: fetcher.failures,
    requests: fetcher.requests,
    bytes: fetcher.bytes,
  };
}
