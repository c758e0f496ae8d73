import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MapResult } from '../../contract/index.ts';
import { mapSite } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { runOp } from '../op-context.ts';
import { ErrorResponse, requireHttpUrl } from '../schemas/common.ts';
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
      const body = request.body;
      const url = requireHttpUrl(body.url, 'url');
      // A map reports and follows only URLs without credentials in them; a start URL with some would match none of its own links.
      const { username, password } = new URL(url);
      if (username || password)
        throw badRequest('url', 'URLs with credentials (user:password@) are not supported by map');
      return runOp(deps.services, deps.ledger, request, reply, (ctx) =>
        mapSite(
          {
            url,
            limit: body.limit,
            search: body.search,
            includeSubdomains: body.includeSubdomains,
            ignoreQueryParameters: body.ignoreQueryParameters,
          },
          ctx,
        ),
      );
    },
  );
};
