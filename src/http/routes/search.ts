import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SearchResult } from '../../contract/index.ts';
import {
  normaliseSearchInput,
  pageScrapeOptions,
  search,
  searchWithPages,
} from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { operationRoute } from '../operations.ts';
import { ErrorResponse } from '../schemas/common.ts';
import { SearchBody } from '../schemas/search.ts';

export const searchRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  operationRoute(app, deps, {
    url: '/v1/search',
    schema: {
      tags: ['search'],
      summary:
        'Search the web with 1-3 queries; each query succeeds, fails and is charged on its own',
      body: SearchBody,
      response: { 200: SearchResult, 400: ErrorResponse, 401: ErrorResponse },
    },
    prepare: (body) => {
      const input = normaliseSearchInput(body);
      const scrape = body.scrape && pageScrapeOptions(body.scrape, 'scrape.');
      return (ctx) => (scrape ? searchWithPages(input, scrape, ctx) : search(input, ctx));
    },
  });
};
