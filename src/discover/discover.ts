import { decodeBody, type HttpEngine, type HttpResponse } from '../acquire/index.ts';
import { BudgetedFetcher } from './budget.ts';
import { drainQueue } from './drain-queue.ts';
import { extractPageLinks } from './html.ts';
import { DEFAULT_LIMITS, type DiscoverLimits } from './limits.ts';
import { isHtml } from './media.ts';
import { isPageUrl, normalizeUrl } from './normalize.ts';
import { type Candidate, rankCandidates } from './rank.ts';
import { robotsSitemaps } from './robots.ts';
import { siteScope } from './scope.ts';
import { addSiteSitemaps, SitemapCollector } from './sitemaps.ts';

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

const MAX_TEXT = 300;

interface CrawlJob {
  url: string;
  depth: number;
}

/**
 * Finds the URLs of a site through every door it offers: robots.txt's Sitemap lines, the usual
 * sitemap locations, sitemap indexes (bounded depth), gzip and text sitemaps, the RSS/Atom feeds
 * the start page announces, the start page's links and, when that is still fewer URLs than asked
 * for, a shallow crawl of same-site pages. Bounded by `limits` in time, requests and bytes.
 */
export async function discover(
  http: HttpEngine,
  input: DiscoverInput,
  signal: AbortSignal,
  limits: DiscoverLimits = DEFAULT_LIMITS,
): Promise<DiscoverResult> {
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

  const sitemaps = new SitemapCollector(
    fetcher,
    limits,
    (url, base, title) => void add(url, base, title),
  );

  // The start page and robots.txt are independent: ask for both at once.
  const robotsUrl = new URL('/robots.txt', start).href;
  const [page, robots] = await Promise.all([
    fetcher.get(start.href, limits.maxPageBytes),
    fetcher.get(robotsUrl, limits.maxPageBytes),
  ]);

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
      for (const feed of readPage(page, 0).feeds) sitemaps.add(feed);
    } else {
      // A sitemap or feed given as the start URL is read as one.
      sitemaps.markRead(start.href);
      await sitemaps.read({ url: page.url, body: [page.body] }, page.body.length, 0);
    }
  }

  const declared =
    robots && !isHtml(robots)
      ? robotsSitemaps(
          decodeBody(robots.body, robots.headers['content-type'] ?? '', false).text,
          robots.url,
        )
      : [];
  addSiteSitemaps(sitemaps, start, declared);
  await sitemaps.drain();

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
