import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AcquireMethod } from '../../contract/index.ts';
import type { CrawlPageInput } from '../../ops/index.ts';
import { CRAWL_MAX_LIMIT, crawlSettings } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { ErrorResponse } from '../schemas/common.ts';
import { CrawlBody } from '../schemas/crawl.ts';
import { JobCreated } from '../schemas/jobs.ts';
import type { WebhookBody } from '../schemas/webhooks.ts';
import { startJob } from './jobs-start.ts';

/** Stores and queues a crawl: its start page is the job's first item. Shared with Firecrawl's /v2/crawl. */
export async function startCrawl(
  deps: RouteDeps,
  userId: string,
  body: Omit<CrawlBody, 'webhook'>,
  webhook?: WebhookBody,
  /** Engines the pages may use when the caller chose them beyond the native `method` (Firecrawl's basic). */
  methods?: AcquireMethod[],
) {
  const crawl = await crawlSettings(body, deps.services.config);
  const settings = methods
    ? { ...crawl.settings, scrape: { ...crawl.settings.scrape, methods } }
    : crawl.settings;
  const { startKey } = crawl;
  const start: CrawlPageInput = { url: settings.url, depth: 0, foundOn: null, crawl: settings };
  return startJob(deps, userId, 'crawl', [start], webhook, {
    keys: [startKey],
    maxItems: settings.limit,
  });
}

export const crawlRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/v1/crawl',
    {
      schema: {
        tags: ['crawl'],
        summary: `Crawl a site in the background, up to ${CRAWL_MAX_LIMIT} pages; results through the job endpoints`,
        body: CrawlBody,
        response: { 202: JobCreated, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { webhook, ...body } = request.body;
      return reply.code(202).send(await startCrawl(deps, request.user.userId, body, webhook));
    },
  );
};
