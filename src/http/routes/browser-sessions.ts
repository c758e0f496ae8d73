import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_HEIGHT, DEFAULT_WIDTH } from '../../sessions/index.ts';
import type { RouteDeps } from '../deps.ts';
import {
  SessionCreateBody,
  SessionCreated,
  SessionDetails,
  SessionList,
  SessionParams,
} from '../schemas/sessions.ts';
import { mapped, sessionRoute } from './session-errors.ts';

export const browserSessionRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const sessions = deps.services.sessions;

  app.post(
    '/v1/browser-sandbox/session',
    sessionRoute('Start a remote browser session', SessionCreated, { body: SessionCreateBody }),
    async (request) => {
      const body = request.body ?? {};
      return mapped(() =>
        sessions.create(request.user.userId, {
          width: body.width ?? DEFAULT_WIDTH,
          height: body.height ?? DEFAULT_HEIGHT,
          headless: body.headless ?? true,
          // The spec's default is true; a server with no default upstream proxy defaults to direct.
          proxy: body.proxy ?? sessions.proxyAvailable,
          browser: body.browser,
          profile: body.profile && { name: body.profile.name, save: body.profile.save ?? false },
          record:
            body.record === true || typeof body.record === 'object'
              ? { video: body.record !== true && body.record.video === true }
              : undefined,
        }),
      );
    },
  );

  app.get(
    '/v1/browser-sandbox/session/:id',
    sessionRoute('Session details', SessionDetails, { params: SessionParams }),
    async (request) => mapped(() => sessions.get(request.user.userId, request.params.id)),
  );

  app.delete(
    '/v1/browser-sandbox/session/:id',
    sessionRoute(
      'Close a session, saving its cookies and localStorage; returns its final details',
      SessionDetails,
      { params: SessionParams },
    ),
    async (request) => mapped(() => sessions.close(request.user.userId, request.params.id)),
  );

  app.post(
    '/v1/browser-sandbox/session/:id/resume',
    sessionRoute(
      'Start a closed session again with its saved state: same id, fresh wsUrl',
      SessionCreated,
      { params: SessionParams },
    ),
    async (request) => mapped(() => sessions.resume(request.user.userId, request.params.id)),
  );

  app.get(
    '/v1/browser-sandbox/sessions',
    {
      config: { public: true },
      schema: {
        tags: ['browser sessions'],
        summary: "This instance's active sessions (no credentials in it)",
        security: [],
        response: { 200: SessionList },
      },
    },
    async () => sessions.listPublic(),
  );
};
