import robotsModule from 'robots-parser';
import type { HttpEngine } from '../acquire/index.ts';

// The package's types declare an ES default export, but it is CommonJS whose module.exports is
// the function itself, which is what a default import yields under Node.
const robotsParser = robotsModule as unknown as typeof robotsModule.default;

/** The token our rules are looked up under in robots.txt; groups for `*` apply when none names it. */
export const ROBOTS_AGENT = 'webdata';

/** The `Sitemap:` lines of a robots.txt, made absolute against its URL. */
export function robotsSitemaps(text: string, robotsUrl: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
    if (!m) continue;
    try {
      out.push(new URL(m[1]!, robotsUrl).href);
    } catch {
      // Not a URL: nothing to follow.
    }
  }
  return out;
}

/** What one origin's robots.txt says to us. */
export interface RobotsRules {
  allows(url: string): boolean;
  /** Crawl-delay for our agent (or `*`), in milliseconds; 0 when none is given. */
  delayMs: number;
  sitemaps: string[];
  /** The server could not say (5xx or unreachable): everything is disallowed, for a shorter while. */
  unavailable?: boolean;
}

const ALLOW_ALL: RobotsRules = { allows: () => true, delayMs: 0, sitemaps: [] };
const UNAVAILABLE: RobotsRules = {
  allows: () => false,
  delayMs: 0,
  sitemaps: [],
  unavailable: true,
};

/** Longest Crawl-delay honoured; a larger one would stall a crawl for hours per page. */
const MAX_CRAWL_DELAY_MS = 60_000;

/**
 * Reads an origin's robots.txt as RFC 9309 says: 2xx is parsed (by robots-parser, which
 * implements Allow/Disallow precedence and wildcards), 4xx means no rules, and 5xx or an
 * unreachable server means the whole site is disallowed until it answers. Never rejects.
 */
export async function fetchRobots(http: HttpEngine, origin: string): Promise<RobotsRules> {
  const url = new URL('/robots.txt', origin).href;
  let res;
  try {
    res = await http.fetch(url, { maxBytes: 512 * 1024 });
  } catch {
    return UNAVAILABLE;
  }
  if (res.statusCode >= 500) return UNAVAILABLE;
  if (res.statusCode >= 400) return ALLOW_ALL;
  const text = res.body.toString('utf8');
  const robots = robotsParser(url, text);
  const delay = robots.getCrawlDelay(ROBOTS_AGENT) ?? 0;
  return {
    // robots-parser answers undefined for a URL of another origin: not ours to judge here.
    allows: (u) => robots.isAllowed(u, ROBOTS_AGENT) !== false,
    delayMs: Math.min(MAX_CRAWL_DELAY_MS, Math.max(0, delay * 1000)),
    sitemaps: robotsSitemaps(text, url),
  };
}

/** How long a robots.txt that could not be read keeps its origin disallowed before it is asked again. */
const UNAVAILABLE_TTL_MS = 60_000;

/**
 * robots.txt per origin, kept for `ttlMs` so a crawl of many pages reads it once per process. One
 * read serves every caller; a caller that is aborted stops waiting without ending the read.
 */
export class RobotsCache {
  readonly #ttlMs: number;
  readonly #entries = new Map<
    string,
    { at: number; rules: Promise<RobotsRules>; settled?: RobotsRules }
  >();

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  async get(http: HttpEngine, origin: string, signal: AbortSignal): Promise<RobotsRules> {
    const now = Date.now();
    let entry = this.#entries.get(origin);
    if (entry && now - entry.at >= (entry.settled?.unavailable ? UNAVAILABLE_TTL_MS : this.#ttlMs))
      entry = undefined;
    if (!entry) {
      const fresh: { at: number; rules: Promise<RobotsRules>; settled?: RobotsRules } = {
        at: now,
        rules: fetchRobots(http, origin),
      };
      void fresh.rules.then((rules) => (fresh.settled = rules));
      this.#entries.set(origin, fresh);
      entry = fresh;
    }
    signal.throwIfAborted();
    const { promise, reject } = Promise.withResolvers<never>();
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([entry.rules, promise]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}
