import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config.ts';
import type { AcquireMethod } from '../../contract/index.ts';
import {
  CRAWL_MAX_LIMIT,
  type CrawlFields,
  type CrawlPageInput,
  crawlSettings,
} from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { CrawlBody } from '../schemas/crawl.ts';
import { type JobItems, jobStartRoute } from './jobs-start.ts';

/** A crawl's job items: its start page, deduped by its key. Shared with Firecrawl's /v2/crawl. */
export async function crawlItems(
  body: CrawlFields,
  config: Config,
  caller: string,
  /** Engines the pages may use when the caller chose them beyond the native `method` (Firecrawl's basic). */
  methods?: AcquireMethod[],
): Promise<Exclude<JobItems, unknown[]>> {
  const crawl = await crawlSettings(body, config, caller);
  const settings = methods
    ? { ...crawl.settings, scrape: { ...crawl.settings.scrape, methods } }
    : crawl.settings;
  const start: CrawlPageInput = { url: settings.url, depth: 0, foundOn: null, crawl: settings };
  return { inputs: [start], opts: { keys: [crawl.startKey], maxItems: settings.limit } };
}

export const crawlRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  jobStartRoute(app, deps, {
    url: '/v1/crawl',
    tags: ['crawl'],
    summary: `Crawl a site in the background, up to ${CRAWL_MAX_LIMIT} pages; results through the job endpoints`,
    body: CrawlBody,
    type: 'crawl',
    items: (body, caller) => crawlItems(body, deps.services.config, caller),
  });
};
