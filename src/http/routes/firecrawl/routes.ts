import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { microsToUsd } from '../../../billing/index.ts';
import type { FetchResult } from '../../../contract/index.ts';
import type { JobType } from '../../../jobs/index.ts';
import {
  InputError,
  mapInput,
  mapSite,
  normaliseSearchInput,
  requireHttpUrl,
  type ScrapeInput,
  scrape,
  scrapeWithScreenshot,
  search,
  searchWithPages,
} from '../../../ops/index.ts';
import type { RouteDeps } from '../../deps.ts';
import { ApiError, badRequest, notFound } from '../../errors.ts';
import { operationRoute } from '../../operations.ts';
import { crawlItems } from '../crawl.ts';
import { startJob } from '../jobs-start.ts';
import { toDocument } from './document.ts';
import {
  JobPageQuery,
  JobParams,
  V2BatchBody,
  V2CrawlBody,
  V2MapBody,
  V2ScrapeBody,
  V2SearchBody,
} from './schemas.ts';
import { compatCrawl, compatScrape } from './translate.ts';

/** Firecrawl takes large batches; items are queued one by one, so the native 30 is not needed here. */
export const FIRECRAWL_BATCH_MAX_URLS = 1000;
const STATUS_PAGE = 100;

const tags = ['firecrawl'];

/** Firecrawl's two kinds of job, each at its own path, and the native job types behind them. */
const JOB_KINDS: ReadonlyArray<{ path: string; types: readonly JobType[]; what: string }> = [
  { path: '/v2/batch/scrape', types: ['scrape-batch', 'scrape-single'], what: 'batch scrape job' },
  { path: '/v2/crawl', types: ['crawl'], what: 'crawl job' },
];

/** Firecrawl's job states: it has one word for both of ours that are still running. */
const jobStatus = (status: string) =>
  status === 'pending' || status === 'processing' ? 'scraping' : status;

/** Firecrawl hands out absolute URLs to poll; the request's own origin holds behind any proxy that forwards Host. */
const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Every field a native result carries is one its request asked for. */
const presentFormats = (r: FetchResult) =>
  new Set(
    ['markdown', 'html', 'rawHtml', 'links', 'listing', 'summary', 'json', 'changeTracking'].filter(
      (f) => (f === 'summary' ? r.content : r[f as keyof FetchResult]) !== undefined,
    ),
  );

/**
 * Firecrawl's v2 API on top of the native operations, so programs written for Firecrawl switch by
 * changing their base URL. Same keys, same charges, same checks; docs/firecrawl.md lists what is
 * and is not supported.
 */
export const firecrawlRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const { config } = deps.services;

  operationRoute(app, deps, {
    url: '/v2/scrape',
    schema: { tags, summary: 'Firecrawl-compatible scrape', body: V2ScrapeBody },
    prepare: async ({ url, ...options }, caller) => {
      const c = await compatScrape(url, options, config, caller);
      return async (ctx) => {
        const { result, shot } = c.screenshot
          ? await scrapeWithScreenshot(c.input, c.screenshot, ctx)
          : { result: await scrape(c.input, ctx), shot: undefined };
        const data = toDocument(result, c.formats, shot);
        const cost = data.metadata.cost;
        if (!result.success)
          return {
            success: false,
            error: result.error ?? 'scrape failed',
            code: 'SCRAPE_FAILED',
            data,
            cost,
          };
        return { success: true, data, cost };
      };
    },
  });

  app.post(
    '/v2/batch/scrape',
    {
      schema: {
        tags,
        summary: 'Firecrawl-compatible batch scrape (a background job)',
        body: V2BatchBody,
      },
    },
    async (request) => {
      const { urls, ignoreInvalidURLs, maxConcurrency: _ignored, ...options } = request.body;
      if (urls.length > FIRECRAWL_BATCH_MAX_URLS)
        throw badRequest(
          'urls',
          `at most ${FIRECRAWL_BATCH_MAX_URLS} URLs per batch (got ${urls.length})`,
        );
      const inputs: ScrapeInput[] = [];
      const invalidURLs: string[] = [];
      for (const [i, url] of urls.entries()) {
        try {
          requireHttpUrl(url, `urls[${i}]`);
        } catch (err) {
          if (ignoreInvalidURLs && err instanceof InputError) {
            invalidURLs.push(url);
            continue;
          }
          throw err;
        }
        const c = await compatScrape(url, options, config, request.user.userId);
        if (c.screenshot) throw badRequest('formats', 'screenshot is served by /v2/scrape only');
        inputs.push(c.input);
      }
      if (inputs.length === 0) throw badRequest('urls', 'no valid URL to scrape');
      const { job } = await deps.jobs.create(request.user.userId, 'scrape-batch', inputs);
      return {
        success: true,
        id: job.id,
        url: `${origin(request)}/v2/batch/scrape/${job.id}`,
        ...(ignoreInvalidURLs ? { invalidURLs } : {}),
      };
    },
  );

  /** The job endpoints Firecrawl has for batches and crawls alike: status with paging, errors, cancel. */
  for (const kind of JOB_KINDS) {
    const jobPage = async (request: FastifyRequest, id: string, offset: number, limit: number) => {
      const page = await deps.jobs.page(request.user.userId, id, offset, limit);
      if (!page || !kind.types.includes(page.job.type)) throw notFound(kind.what);
      return page;
    };

    app.get(
      `${kind.path}/:id`,
      {
        schema: {
          tags,
          summary: `Firecrawl-compatible ${kind.what} status`,
          params: JobParams,
          querystring: JobPageQuery,
        },
      },
      async (request) => {
        const skip = Number(request.query.skip ?? '0');
        const { job, data } = await jobPage(request, request.params.id, skip, STATUS_PAGE);
        const docs = (data.filter((item) => item !== null) as FetchResult[]).map((r) =>
          toDocument(r, presentFormats(r)),
        );
        const next =
          skip + STATUS_PAGE < job.total
            ? `${origin(request)}${kind.path}/${job.id}?skip=${skip + STATUS_PAGE}`
            : null;
        return {
          success: true,
          status: jobStatus(job.status),
          completed: job.completed,
          total: job.total,
          creditsUsed: 0,
          expiresAt: new Date(job.expiresAt).toISOString(),
          next,
          data: docs,
          cost: microsToUsd(job.costMicros),
        };
      },
    );

    app.get(
      `${kind.path}/:id/errors`,
      {
        schema: {
          tags,
          summary: `Firecrawl-compatible: a ${kind.what}'s failed URLs`,
          params: JobParams,
        },
      },
      async (request) => {
        const errors: Array<{ id: string; url: string; error: string; timestamp?: string }> = [];
        for (let offset = 0; ; offset += STATUS_PAGE) {
          const { job, data } = await jobPage(request, request.params.id, offset, STATUS_PAGE);
          data.forEach((item, i) => {
            const r = item as FetchResult | null;
            if (r && !r.success)
              errors.push({
                id: `${job.id}-${offset + i}`,
                url: r.url,
                error: r.error ?? 'failed',
                timestamp: r.timestamp,
              });
          });
          if (offset + STATUS_PAGE >= job.total) break;
        }
        // A crawl never fetches what robots.txt disallows, and keeps no list of it.
        return { errors, robotsBlocked: [] };
      },
    );

    app.delete(
      `${kind.path}/:id`,
      {
        schema: { tags, summary: `Firecrawl-compatible: cancel a ${kind.what}`, params: JobParams },
      },
      async (request) => {
        await jobPage(request, request.params.id, 0, 1);
        const outcome = await deps.jobs.cancel(request.user.userId, request.params.id);
        if (outcome.kind === 'missing') throw notFound(kind.what);
        if (outcome.kind === 'finished')
          throw new ApiError(
            409,
            `job is already ${outcome.job.status}; only running jobs can be cancelled`,
          );
        return { success: true, status: 'cancelled' };
      },
    );
  }

  app.post(
    '/v2/crawl',
    {
      schema: { tags, summary: 'Firecrawl-compatible crawl (a background job)', body: V2CrawlBody },
    },
    async (request) => {
      const caller = request.user.userId;
      const { body, methods } = await compatCrawl(request.body, config, caller);
      const { inputs, opts } = await crawlItems(body, config, caller, methods);
      const { id } = await startJob(deps, caller, 'crawl', inputs, undefined, opts);
      return { success: true, id, url: `${origin(request)}/v2/crawl/${id}` };
    },
  );

  operationRoute(app, deps, {
    url: '/v2/map',
    schema: { tags, summary: 'Firecrawl-compatible map', body: V2MapBody },
    prepare: (body) => {
      if (body.sitemap !== undefined && body.sitemap !== 'include')
        throw badRequest(
          'sitemap',
          'only "include" is supported: sitemaps and page links are always both used',
        );
      const input = mapInput(body);
      return async (ctx) => {
        const result = await mapSite(input, ctx);
        if (!result.success)
          return { success: false, error: result.error ?? 'map failed', cost: result.cost };
        return {
          success: true,
          links: result.links.map((link) => ({ url: link })),
          cost: result.cost,
        };
      };
    },
  });

  operationRoute(app, deps, {
    url: '/v2/search',
    schema: {
      tags,
      summary: 'Firecrawl-compatible search, optionally scraping each result',
      body: V2SearchBody,
    },
    prepare: async (body, caller) => {
      for (const [i, source] of (body.sources ?? []).entries()) {
        const type = typeof source === 'string' ? source : source.type;
        if (type !== 'web')
          throw badRequest(`sources[${i}]`, `only web results are supported, not ${type}`);
      }
      if (body.location !== undefined && !/^[A-Za-z]{2}$/.test(body.location))
        throw badRequest(
          'location',
          'give a country code (or use country); place names are not supported',
        );
      const input = normaliseSearchInput({
        queries: [body.query],
        limit: body.limit ?? 5,
        ...((body.country ?? body.location) ? { location: body.country ?? body.location } : {}),
        ...(body.includeDomains ? { includeDomains: body.includeDomains } : {}),
        ...(body.excludeDomains ? { excludeDomains: body.excludeDomains } : {}),
        engine: config.search.firecrawlEngine,
      });
      // The options are checked against a stand-in URL before the search runs, so a bad one costs nothing.
      const compat =
        body.scrapeOptions &&
        (await compatScrape(
          'https://example.invalid/',
          body.scrapeOptions,
          config,
          caller,
          'scrapeOptions.',
        ));
      if (compat?.screenshot)
        throw badRequest('scrapeOptions.formats', 'screenshot is served by /v2/scrape only');
      const pageOptions = compat && (({ url: _url, ...rest }) => rest)(compat.input);
      return async (ctx) => {
        const found = pageOptions
          ? await searchWithPages(input, pageOptions, ctx)
          : await search(input, ctx);
        const query = found.results[0]!;
        if (!query.success)
          return { success: false, error: query.error ?? 'search failed', cost: found.cost };
        const web = query.results.map((hit, i) => ({
          url: hit.url,
          title: hit.title,
          description: hit.description,
          position: i + 1,
          ...(hit.page && compat ? toDocument(hit.page, compat.formats) : {}),
        }));
        return { success: true, data: { web }, cost: found.cost };
      };
    },
  });
};
