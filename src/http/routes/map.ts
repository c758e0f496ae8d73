import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapSite } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { runOp } from '../op-context.ts';
import { ErrorResponse, requireHttpUrl } from '../schemas/common.ts';
import { MapBody, MapResponse } from '../schemas/map.ts';

export const mapRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/v1/map',
    {
      schema: {
        tags: ['map'],
        summary: "Discover a site's URLs, optionally ranked by a keyword",
        body: MapBody,
        response: { 200: MapResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const url = requireHttpUrl(body.url, 'url');
      return runOp(deps.services, deps.ledger, request, reply, (ctx) =>
        mapSite({ url, limit: body.limit, search: body.search, includeSubdomains: body.includeSubdomains, ignoreQueryParameters: body.ignoreQueryParameters }, ctx),
      );
    },
  );
};
