import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MapResult } from '../../contract/index.ts';
import { mapSite } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { mapInput } from '../inputs.ts';
import { runOp } from '../op-context.ts';
import { ErrorResponse } from '../schemas/common.ts';
import { MapBody } from '../schemas/map.ts';

export const mapRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/v1/map',
    {
      schema: {
        tags: ['map'],
        summary: "Discover a site's URLs, optionally ranked by a keyword",
        body: MapBody,
        response: { 200: MapResult, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const input = mapInput(request.body);
      return runOp(deps.services, deps.ledger, request, reply, (ctx) => mapSite(input, ctx));
    },
  );
};
