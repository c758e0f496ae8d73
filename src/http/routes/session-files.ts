import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SessionError } from '../../sessions/index.ts';
import type { RouteDeps } from '../deps.ts';
import { badRequest } from '../errors.ts';
import {
  Deleted,
  SessionFile,
  SessionFileBytes,
  SessionFileList,
  SessionFileParams,
  SessionParams,
} from '../schemas/sessions.ts';
import { mapped, sessionRoute } from './session-errors.ts';

const FIELD = 'file';

/**
 * A session's files: uploads for its pages' file inputs and the downloads of its pages (the
 * sessions room keeps them in the session's folder, under its limits and the key's quota).
 */
export const sessionFileRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const sessions = deps.services.sessions;
  // Busboy's own size cap is lifted: the sessions room caps each upload, by the file size limit
  // or what is left of the key's quota, whichever is smaller, with a message saying which.
  await app.register(multipart, {
    limits: { files: 1, fileSize: Number.MAX_SAFE_INTEGER, fields: 0, parts: 2 },
  });

  app.post(
    '/v1/browser-sandbox/session/:id/files',
    sessionRoute(
      "Upload a file (multipart/form-data, field `file`) into the session's files folder; a file of the same name is replaced",
      SessionFile,
      { consumes: ['multipart/form-data'], params: SessionParams },
    ),
    async (request) => {
      if (!request.isMultipart())
        throw badRequest(
          'body',
          `must be multipart/form-data with the file in a field named ${FIELD}`,
        );
      const part = await request.file().catch((err: Error) => {
        throw badRequest(FIELD, err.message);
      });
      if (!part) throw badRequest(FIELD, 'is required');
      if (part.fieldname !== FIELD) {
        part.file.resume();
        throw badRequest(FIELD, `is required; the form sent a field named ${part.fieldname}`);
      }
      return mapped(async () => {
        try {
          return await sessions.files.write(
            request.user.userId,
            request.params.id,
            part.filename,
            part.file,
          );
        } catch (err) {
          // A body that ends early or breaks the multipart framing is the client's, not ours.
          if (err instanceof SessionError || !part.file.errored) throw err;
          throw badRequest(FIELD, (err as Error).message);
        }
      });
    },
  );

  app.get(
    '/v1/browser-sandbox/session/:id/files',
    sessionRoute(
      "The session's files: uploads and its pages' downloads, oldest first",
      SessionFileList,
      { params: SessionParams },
    ),
    async (request) =>
      mapped(async () => ({
        files: await sessions.files.list(request.user.userId, request.params.id),
      })),
  );

  app.get(
    '/v1/browser-sandbox/session/:id/files/:name',
    sessionRoute('One file of the session, as it is', SessionFileBytes, {
      params: SessionFileParams,
      produces: ['application/octet-stream'],
    }),
    async (request, reply) => {
      const { name } = request.params;
      const file = await mapped(() =>
        sessions.files.open(request.user.userId, request.params.id, name),
      );
      return reply
        .type('application/octet-stream')
        .header('content-length', file.size)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );

  app.delete(
    '/v1/browser-sandbox/session/:id/files/:name',
    sessionRoute('Delete one file of the session', Deleted, { params: SessionFileParams }),
    async (request) =>
      mapped(async () => {
        await sessions.files.delete(request.user.userId, request.params.id, request.params.name);
        return { success: true as const };
      }),
  );
};
