import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SequenceResult } from '../../contract/index.ts';
import { SequenceBody, sequence, sequenceInput } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { operationRoute, parsed } from '../operations.ts';
import { ErrorResponse } from '../schemas/common.ts';

export const scrapeSequenceRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  operationRoute(app, deps, {
    url: '/v1/scrape/sequence',
    schema: {
      tags: ['scrape'],
      summary: 'Run browser steps on one page; each scrape step captures the page',
      body: SequenceBody,
      response: { 200: SequenceResult, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
    },
    prepare: parsed((body, caller) => sequenceInput(body, deps.services.config, caller), sequence),
  });
};
