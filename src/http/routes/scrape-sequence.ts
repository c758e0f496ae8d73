import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sequence } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { runOp } from '../op-context.ts';
import { checkSteps } from '../schemas/actions.ts';
import { ErrorResponse, refuseUnsupported, requireHttpUrl } from '../schemas/common.ts';
import { SequenceBody, SequenceResponse, UNSUPPORTED_SEQUENCE_FIELDS } from '../schemas/sequence.ts';

export const scrapeSequenceRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/v1/scrape/sequence',
    {
      schema: {
        tags: ['scrape'],
        summary: 'Run browser steps on one page; each scrape step captures the page',
        body: SequenceBody,
        response: { 200: SequenceResponse, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      const body = request.body;
      refuseUnsupported(body, UNSUPPORTED_SEQUENCE_FIELDS);
      const startUrl = requireHttpUrl(body.startUrl, 'startUrl');
      checkSteps(body.steps, 'steps');
      return runOp(deps.services, deps.ledger, request, reply, (ctx) =>
        sequence({ startUrl, steps: body.steps, type: body.type, onlyMainContent: body.onlyMainContent, extractMetadata: body.extractMetadata }, ctx),
      );
    },
  );
};
