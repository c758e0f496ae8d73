import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FetchResult } from '../../contract/index.ts';
import { scrape } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { scrapeInput } from '../inputs.ts';
import { runOp } from '../op-context.ts';
import { ErrorResponse } from '../schemas/common.ts';
import { ScrapeSingleBody } from '../schemas/scrape.ts';

export const scrapeSingleRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/v1/scrape/single',
    {
      schema: {
        tags: ['scrape'],
        summary: 'Fetch one URL and return markdown or HTML',
        body: ScrapeSingleBody,
        response: { 200: FetchResult, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      const input = scrapeInput(request.body, deps.services.config);
      return runOp(deps.services, deps.ledger, request, reply, (ctx) => scrape(input, ctx));
    },
  );
};
