import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SearchResult } from '../../contract/index.ts';
import { search, searchWithPages } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { pageScrapeOptions, searchInput } from '../inputs.ts';
import { runOp } from '../op-context.ts';
import { ErrorResponse } from '../schemas/common.ts';
import { SearchBody } from '../schemas/search.ts';

export const searchRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/v1/search',
    {
      schema: {
        tags: ['search'],
        summary:
          'Search the web with 1-3 queries; each query succeeds, fails and is charged on its own',
        body: SearchBody,
        response: { 200: SearchResult, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const input = searchInput(request.body);
      const scrape = request.body.scrape && pageScrapeOptions(request.body.scrape, 'scrape.');
      return runOp(deps.services, deps.ledger, request, reply, (ctx) =>
        scrape ? searchWithPages(input, scrape, ctx) : search(input, ctx),
      );
    },
  );
};
