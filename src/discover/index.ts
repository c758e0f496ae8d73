export { discover, type DiscoverInput, type DiscoverResult } from './discover.ts';
export { DEFAULT_LIMITS, type DiscoverLimits } from './limits.ts';
export { normalizeUrl, isPageUrl } from './normalize.ts';
export { readSitemap, type ListedUrl, type SitemapReadResult } from './sitemap.ts';
export { rankCandidates, words } from './rank.ts';
