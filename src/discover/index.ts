export { BudgetedFetcher } from './budget.ts';
export { crawlScope, crawlStartKey, pathPattern } from './crawl-scope.ts';
export { discover } from './discover.ts';
export { HostGate } from './host-gate.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export { MAX_URL_CHARS } from './normalize.ts';
export { RobotsCache, type RobotsRules } from './robots.ts';
export { addSiteSitemaps, SitemapCollector } from './sitemaps.ts';
