import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FetchResult } from '../../contract/index.ts';
import { ScrapeSingleBody, scrape, scrapeInput } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { operationRoute, parsed } from '../operations.ts';
import { ErrorResponse } from '../schemas/common.ts';

export const scrapeSingleRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  operationRoute(app, deps, {
    url: '/v1/scrape/single',
    schema: {
      tags: ['scrape'],
      summary: 'Fetch one URL and return markdown or HTML',
      body: ScrapeSingleBody,
      response: { 200: FetchResult, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
    },
    prepare: parsed((body, caller) => scrapeInput(body, deps.services.config, caller), scrape),
  });
};
