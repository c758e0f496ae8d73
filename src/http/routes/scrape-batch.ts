import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { scrapeBatch, type ScrapeInput } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { runOp } from '../op-context.ts';
import { ErrorResponse, refuseUnsupported, requireHttpUrl } from '../schemas/common.ts';
import { checkSteps } from '../schemas/actions.ts';
import { BatchResponse, ScrapeBatchBody, UNSUPPORTED_SCRAPE_FIELDS } from '../schemas/scrape.ts';

export const scrapeBatchRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const max = deps.services.config.batchMaxUrls;
  app.post(
    '/v1/scrape/batch',
    {
      schema: {
        tags: ['scrape'],
        summary: `Fetch up to ${max} URLs at once; a failed URL never sinks the batch`,
        body: ScrapeBatchBody,
        response: { 200: BatchResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.urls.length > max) throw badRequest('urls', `at most ${max} URLs per synchronous batch (got ${body.urls.length}); use /v1/scrape/async/batch for more`);
      refuseUnsupported(body, UNSUPPORTED_SCRAPE_FIELDS);
      const urls: ScrapeInput[] = body.urls.map((item, i) => {
        if (typeof item === 'string') return { url: requireHttpUrl(item, `urls[${i}]`) };
        refuseUnsupported(item, UNSUPPORTED_SCRAPE_FIELDS, `urls[${i}].`);
        checkSteps(item.actions, `urls[${i}].actions`);
        return { url: requireHttpUrl(item.url, `urls[${i}].url`), type: item.type, onlyMainContent: item.onlyMainContent, extractMetadata: item.extractMetadata, pdfStrategy: item.pdfStrategy, actions: item.actions };
      });
      return runOp(deps.services, deps.ledger, request, reply, (ctx) =>
        scrapeBatch({ urls, type: body.type, onlyMainContent: body.onlyMainContent, extractMetadata: body.extractMetadata, pdfStrategy: body.pdfStrategy }, ctx),
      );
    },
  );
};
