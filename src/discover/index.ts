export { discover, type DiscoverInput, type DiscoverResult } from './discover.ts';
export { DEFAULT_LIMITS, type DiscoverLimits } from './limits.ts';
export { BudgetedFetcher } from './budget.ts';
export { SitemapCollector, addSiteSitemaps } from './sitemaps.ts';
export { crawlScope, crawlStartKey, pathPattern, type CrawlScopeInput } from './crawl-scope.ts';
export { RobotsCache, fetchRobots, ROBOTS_AGENT, type RobotsRules } from './robots.ts';
export { HostGate } from './host-gate.ts';
