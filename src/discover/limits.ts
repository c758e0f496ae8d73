/** Bounds of one map: how long, how many requests, how many bytes, how deep. */
export interface DiscoverLimits {
  /** Whole-map deadline; whatever was found by then is the answer. */
  deadlineMs: number;
  /** Outbound requests one map may make, robots.txt and pages included. */
  maxRequests: number;
  /** Bytes one map may download, summed over every response after decompression. */
  maxTotalBytes: number;
  /** Largest sitemap after decompression (the sitemap protocol's own limit is 50 MB). */
  maxSitemapBytes: number;
  /** Levels of sitemap index below the first sitemap. */
  maxSitemapDepth: number;
  /** Sitemaps and feeds fetched in all. */
  maxSitemaps: number;
  /** Child sitemaps followed from one index, so that one index cannot spend the whole sitemap budget. */
  maxChildrenPerIndex: number;
  /** Entries read from one sitemap (the protocol allows 50,000). */
  maxEntriesPerSitemap: number;
  /** Element nesting beyond which an XML document is treated as hostile and abandoned. */
  maxXmlDepth: number;
  /** Distinct URLs kept as candidates; later ones are ignored. */
  maxCandidates: number;
  /** HTML pages fetched by the link crawl, start page excluded. */
  maxCrawlPages: number;
  /** Link hops from the start page the crawl may follow. */
  maxCrawlDepth: number;
  /** Largest HTML page or robots.txt read. */
  maxPageBytes: number;
  /** Requests in flight at once. */
  concurrency: number;
}

export const DEFAULT_LIMITS: DiscoverLimits = {
  deadlineMs: 30_000,
  maxRequests: 200,
  maxTotalBytes: 200 * 1024 * 1024,
  maxSitemapBytes: 50 * 1024 * 1024,
  maxSitemapDepth: 3,
  maxSitemaps: 100,
  maxChildrenPerIndex: 50,
  maxEntriesPerSitemap: 50_000,
  maxXmlDepth: 32,
  maxCandidates: 200_000,
  maxCrawlPages: 25,
  maxCrawlDepth: 2,
  maxPageBytes: 5 * 1024 * 1024,
  concurrency: 6,
};
