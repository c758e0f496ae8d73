import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { scrape } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { runOp } from '../op-context.ts';
import { ErrorResponse, refuseUnsupported, requireHttpUrl } from '../schemas/common.ts';
import { checkSteps } from '../schemas/actions.ts';
import { FetchResult, ScrapeSingleBody, UNSUPPORTED_SCRAPE_FIELDS } from '../schemas/scrape.ts';

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
      const body = request.body;
      refuseUnsupported(body, UNSUPPORTED_SCRAPE_FIELDS);
      const url = requireHttpUrl(body.url, 'url');
      checkSteps(body.actions, 'actions');
      return runOp(deps.services, deps.ledger, request, reply, (ctx) =>
        scrape({ url, type: body.type, onlyMainContent: body.onlyMainContent, extractMetadata: body.extractMetadata, pdfStrategy: body.pdfStrategy, actions: body.actions }, ctx),
      );
    },
  );
};
