import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BatchResult } from '../../contract/index.ts';
import { batchInput, ScrapeBatchBody, scrapeBatch } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { operationRoute, parsed } from '../operations.ts';
import { ErrorResponse } from '../schemas/common.ts';

export const scrapeBatchRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const max = deps.services.config.batchMaxUrls;
  operationRoute(app, deps, {
    url: '/v1/scrape/batch',
    schema: {
      tags: ['scrape'],
      summary: `Fetch up to ${max} URLs at once; a failed URL never sinks the batch`,
      body: ScrapeBatchBody,
      response: { 200: BatchResult, 400: ErrorResponse, 401: ErrorResponse },
    },
    prepare: parsed(
      (body, caller) =>
        batchInput(body, deps.services.config, caller, {
          max,
          what: 'synchronous batch; use /v1/scrape/async/batch for larger jobs',
        }),
      scrapeBatch,
    ),
  });
};
