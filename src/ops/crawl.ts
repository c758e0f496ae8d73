import type { FetchResult } from '../contract/index.ts';
import {
  addSiteSitemaps,
  BudgetedFetcher,
  crawlKeys,
  DEFAULT_LIMITS,
  HostGate,
  PathMatchDeadlineError,
  RobotsCache,
  type RobotsRules,
  SitemapCollector,
} from '../discover/index.ts';
import type { OpContext } from './context.ts';
import { failure, type ScrapeOptions, scrape } from './scrape.ts';

export type SitemapMode = 'include' | 'skip' | 'only';

/** A whole crawl's settings, carried by each of its pages so any worker can run any page. */
export interface CrawlSettings {
  url: string;
  limit: number;
  maxDepth: number;
  includePaths: string[];
  excludePaths: string[];
  includeSubdomains: boolean;
  ignoreQueryParameters: boolean;
  stayUnderStartPath: boolean;
  sitemap: SitemapMode;
  ignoreRobotsTxt: boolean;
  delayMs: number;
  scrape: ScrapeOptions;
}

/** One page of a crawl: where it is, how it was reached. */
export interface CrawlPageInput {
  url: string;
  /** Link hops from the start URL; pages listed in a sitemap are depth 1. */
  depth: number;
  /** The page or sitemap the URL was found on; null for the start URL. */
  foundOn: string | null;
  crawl: CrawlSettings;
}

export interface CrawlPageResult extends FetchResult {
  depth: number;
  foundOn: string | null;
}

/** A URL found on a page, as the crawl would visit it; `key` is its normalised spelling. */
export interface DiscoveredPage {
  key: string;
  input: CrawlPageInput;
}

export interface CrawlPageOutcome {
  page: CrawlPageResult;
  /** New in-scope, robots-allowed URLs in the order they were found; the job keeps those it has not seen, up to its limit. */
  discovered: DiscoveredPage[];
}

/** How long a robots.txt read stays good for the crawls of a service. */
const ROBOTS_TTL_MS = 10 * 60_000;

/**
 * Politeness a service's crawls share: every crawl page it runs passes one gate per host (each
 * user paced by its own delay, the host's ceiling shared in turn), and robots.txt is read once
 * per origin. Built with the services, so each service keeps its own, at its own per-host limit.
 */
export interface CrawlPoliteness {
  robots: RobotsCache;
  hosts: HostGate;
}

export function crawlPoliteness(perHost: number): CrawlPoliteness {
  return { robots: new RobotsCache(ROBOTS_TTL_MS), hosts: new HostGate(perHost) };
}

const NO_ROBOTS: RobotsRules = { allows: () => true, delayMs: 0, sitemaps: [] };

/**
 * Fetches one page of a crawl through `scrape()` (same formats, escalation and price), within the
 * host's politeness bounds, and reports the URLs it leads to: its links while under `maxDepth`
 * (none with `sitemap: 'only'`), and for the start page the site's sitemaps too (unless `skip`).
 */
export async function crawlPage(input: CrawlPageInput, ctx: OpContext): Promise<CrawlPageOutcome> {
  const { crawl } = input;
  const { config, httpEngine, politeness } = ctx.services;
  const rulesFor = (url: string) =>
    crawl.ignoreRobotsTxt
      ? Promise.resolve(NO_ROBOTS)
      : politeness.robots.get(httpEngine, new URL(url).origin, ctx.signal);
  const robots = await rulesFor(input.url);
  const where = { depth: input.depth, foundOn: input.foundOn };
  if (!robots.allows(input.url)) {
    const why = robots.unavailable
      ? 'robots.txt could not be read (the server answered 5xx or not at all), so the site is treated as disallowed'
      : 'robots.txt disallows this URL';
    return {
      page: {
        ...failure(input.url, new Error(`${why} (set ignoreRobotsTxt to crawl it anyway)`)),
        ...where,
      },
      discovered: [],
    };
  }

  const host = new URL(input.url).host;
  const release = await politeness.hosts.acquire(
    ctx.userId,
    host,
    Math.max(crawl.delayMs, robots.delayMs),
    ctx.signal,
  );
  let links: string[] = [];
  let result: FetchResult;
  try {
    result = await scrape({ ...crawl.scrape, url: input.url }, ctx, (found) => (links = found));
  } finally {
    release();
  }

  // What the page and, for the start page, its sitemaps lead to, in the order found.
  const found: Array<{ url: string; base: string; depth: number }> = [];
  // Links were made absolute against where the page landed, so a page that redirected off the site yields none in scope.
  if (result.success && crawl.sitemap !== 'only' && input.depth + 1 <= crawl.maxDepth) {
    for (const link of links) found.push({ url: link, base: input.url, depth: input.depth + 1 });
  }
  if (input.foundOn === null && crawl.sitemap !== 'skip') {
    const listed: Array<{ url: string; base: string }> = [];
    const limits = {
      ...DEFAULT_LIMITS,
      deadlineMs: config.mapTimeoutMs,
      maxRequests: config.mapMaxRequests,
    };
    const fetcher = new BudgetedFetcher(httpEngine, limits, ctx.signal);
    const sitemaps = new SitemapCollector(fetcher, limits, (url, base) => {
      if (listed.length < crawl.limit * 2) listed.push({ url, base });
    });
    addSiteSitemaps(sitemaps, new URL(input.url), robots.sitemaps);
    await sitemaps.drain();
    if (ctx.signal.aborted) throw ctx.signal.reason;
    if (crawl.maxDepth >= 1) for (const entry of listed) found.push({ ...entry, depth: 1 });
  }

  let keys: Array<string | undefined>;
  let warning: string | undefined;
  try {
    keys = await crawlKeys(crawl, found, { key: ctx.userId, signal: ctx.signal });
  } catch (err) {
    if (!(err instanceof PathMatchDeadlineError)) throw err;
    keys = [];
    warning = `its links were not followed: ${err.message}`;
  }
  const discovered: DiscoveredPage[] = [];
  const seen = new Set<string>();
  const rulesByOrigin = new Map<string, RobotsRules>([[new URL(input.url).origin, robots]]);
  for (const [i, key] of keys.entries()) {
    if (discovered.length >= crawl.limit) break;
    if (!key || seen.has(key)) continue;
    seen.add(key);
    const origin = new URL(key).origin;
    let rules = rulesByOrigin.get(origin);
    if (!rules) {
      rules = await rulesFor(key);
      rulesByOrigin.set(origin, rules);
    }
    if (!rules.allows(key)) continue;
    const { depth, base } = found[i]!;
    discovered.push({ key, input: { url: key, depth, foundOn: base, crawl } });
  }
  return { page: { ...result, ...where, ...(warning ? { warning } : {}) }, discovered };
}
