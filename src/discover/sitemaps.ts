import type { BudgetedFetcher } from './budget.ts';
import { drainQueue } from './drain-queue.ts';
import type { DiscoverLimits } from './limits.ts';
import { declaredHtml } from './media.ts';
import { readSitemap } from './sitemap.ts';

/** Where sites usually keep a sitemap when robots.txt does not say. */
export const USUAL_SITEMAPS = [
  '/sitemap.xml',
  '/sitemap_index.xml',
  '/sitemap.xml.gz',
  '/sitemap.txt',
];

/**
 * The sitemaps and feeds of one site, read through a budgeted fetcher: indexes are followed to a
 * bounded depth and breadth, each document at most once, every listed page handed to `onPage`.
 * Shared by the map and the crawl's seeding so both read a site's listings the same way.
 */
export class SitemapCollector {
  readonly #fetcher: BudgetedFetcher;
  readonly #limits: DiscoverLimits;
  readonly #onPage: (url: string, base: string, title?: string) => void;
  readonly #queue: Array<{ url: string; depth: number }> = [];
  readonly #seen = new Set<string>();

  constructor(
    fetcher: BudgetedFetcher,
    limits: DiscoverLimits,
    onPage: (url: string, base: string, title?: string) => void,
  ) {
    this.#fetcher = fetcher;
    this.#limits = limits;
    this.#onPage = onPage;
  }

  /** Queues a sitemap or feed to read, unless already queued or the sitemap budget is spent. */
  add(url: string, depth = 0): void {
    const key = url.replace(/#.*$/, '');
    if (this.#seen.has(key) || this.#seen.size >= this.#limits.maxSitemaps) return;
    this.#seen.add(key);
    this.#queue.push({ url: key, depth });
  }

  /** Marks a document as read elsewhere (a start URL that is itself a sitemap). */
  markRead(url: string): void {
    this.#seen.add(url);
  }

  /** Reads a sitemap or feed; `counted` is how much of it the byte budget already holds. */
  async read(
    res: { url: string; body: AsyncIterable<Buffer> | Iterable<Buffer> },
    counted: number,
    depth: number,
  ): Promise<void> {
    const fetcher = this.#fetcher;
    const limits = this.#limits;
    let children = 0;
    const result = await readSitemap(res.body, {
      maxEntries: limits.maxEntriesPerSitemap,
      maxXmlDepth: limits.maxXmlDepth,
      maxBytes: Math.min(limits.maxSitemapBytes, fetcher.bytesLeft + counted),
      onPage: (e) => this.#onPage(e.url, res.url, e.title),
      onChild: (child) => {
        if (depth >= limits.maxSitemapDepth) {
          fetcher.failures.set(
            child,
            `sitemap index nested deeper than ${limits.maxSitemapDepth} levels`,
          );
          return;
        }
        if (++children > limits.maxChildrenPerIndex) {
          fetcher.failures.set(
            res.url,
            `index lists more than ${limits.maxChildrenPerIndex} sitemaps; the rest were not read`,
          );
          return;
        }
        try {
          this.add(new URL(child, res.url).href, depth + 1);
        } catch {
          fetcher.failures.set(child, 'not a URL');
        }
      },
    });
    // Inflated gzip bytes count against the byte budget too.
    fetcher.addBytes(Math.max(0, Math.max(result.read, result.bytes) - counted));
    if (result.stopped && result.kind !== 'html')
      fetcher.failures.set(res.url, `read in part: ${result.stopped}`);
  }

  /** Reads everything queued, and what indexes add on the way. */
  async drain(): Promise<void> {
    await drainQueue(this.#queue, this.#limits.concurrency, async (job) => {
      // Streamed: a 50 MB sitemap is parsed as it arrives rather than held whole.
      const res = await this.#fetcher.open(job.url, this.#limits.maxSitemapBytes);
      if (!res) return;
      try {
        if (!declaredHtml(res.headers)) await this.read(res, 0, job.depth);
      } finally {
        res.body.destroy();
      }
    });
  }
}

/** Queues the sitemaps robots.txt declares, then the usual locations (only the first when some were declared). */
export function addSiteSitemaps(collector: SitemapCollector, start: URL, declared: string[]): void {
  for (const url of declared) collector.add(url);
  for (const path of declared.length > 0 ? USUAL_SITEMAPS.slice(0, 1) : USUAL_SITEMAPS)
    collector.add(new URL(path, start).href);
}
