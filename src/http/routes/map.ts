import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MapResult } from '../../contract/index.ts';
import { MapBody, mapInput, mapSite } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { operationRoute, parsed } from '../operations.ts';
import { ErrorResponse } from '../schemas/common.ts';

export const mapRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  operationRoute(app, deps, {
    url: '/v1/map',
    schema: {
      tags: ['map'],
      summary: "Discover a site's URLs, optionally ranked by a keyword",
      body: MapBody,
      response: { 200: MapResult, 400: ErrorResponse, 401: ErrorResponse },
    },
    prepare: parsed(mapInput, mapSite),
  });
};
