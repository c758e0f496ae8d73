import type { FastifyPluginAsync } from 'fastify';
import { openArtifact } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { notFound } from '../errors.ts';

/**
 * Screenshots and PDFs at `/files/<token>/<name>`: public like the URLs the API hands out (the
 * random token is the secret), gone once expired.
 */
export const filesRoutes: FastifyPluginAsync<RouteDeps> = async (app, deps) => {
  app.get<{ Params: { token: string; name: string } }>(
    '/files/:token/:name',
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const file = await openArtifact(
        deps.services,
        `${request.params.token}/${request.params.name}`,
      );
      if (!file) throw notFound('file');
      return reply
        .type(file.contentType)
        .header('content-length', file.size)
        .header('content-disposition', `inline; filename="${file.fileName}"`)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );
};
