import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CacheMatch } from '../../cache/index.ts';
import { normalizeUrl } from '../../discover/index.ts';
import { requireHttpUrl } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { CacheDeleteQuery, CacheDeleteResponse } from '../schemas/cache.ts';
import { ErrorResponse } from '../schemas/common.ts';

/** The query as what to delete, in the spelling entries are stored under; a 400 naming the field otherwise. */
function matchOf(query: { url?: string; prefix?: string }): CacheMatch {
  if ((query.url === undefined) === (query.prefix === undefined))
    throw badRequest('url', 'give either url or prefix');
  if (query.url !== undefined) {
    const url = normalizeUrl(requireHttpUrl(query.url, 'url'), undefined, { ignoreQuery: false });
    if (!url)
      throw badRequest('url', 'is not a URL the cache keeps (too long, or with credentials)');
    return { url: url.href };
  }
  return { prefix: requireHttpUrl(query.prefix!, 'prefix') };
}

/** The caller's own cached results, deleted by URL or URL prefix. */
export const cacheRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.delete(
    '/v1/cache',
    {
      schema: {
        tags: ['cache'],
        summary: "Delete the caller's cached results of one URL or of every URL under a prefix",
        querystring: CacheDeleteQuery,
        response: { 200: CacheDeleteResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const deleted = await deps.services.cache.delete(request.user.userId, matchOf(request.query));
      return { success: true as const, deleted };
    },
  );
};
