import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { normaliseSearchInput, search, SearchInputError, type SearchInput } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { runOp } from '../op-context.ts';
import { ErrorResponse } from '../schemas/common.ts';
import { SearchBody, SearchResponse } from '../schemas/search.ts';

export const searchRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/v1/search',
    {
      schema: {
        tags: ['search'],
        summary: 'Search the web with 1-3 queries; each query succeeds, fails and is charged on its own',
        body: SearchBody,
        response: { 200: SearchResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      let input: SearchInput;
      try {
        input = normaliseSearchInput(request.body);
      } catch (err) {
        if (err instanceof SearchInputError) throw badRequest(err.field, err.message);
        throw err;
      }
      return runOp(deps.services, deps.ledger, request, reply, (ctx) => search(input, ctx));
    },
  );
};
