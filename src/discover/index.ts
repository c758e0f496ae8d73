export { discover } from './discover.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export { BudgetedFetcher } from './budget.ts';
export { SitemapCollector, addSiteSitemaps } from './sitemaps.ts';
export { crawlScope, crawlStartKey, pathPattern } from './crawl-scope.ts';
export { RobotsCache, type RobotsRules } from './robots.ts';
export { HostGate } from './host-gate.ts';
