import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bridgeBrowser, bridgeVnc, type LiveSession } from '../../sessions/index.ts';
import type { RouteDeps } from '../deps.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';

const NOVNC_ROOT = dirname(dirname(fileURLToPath(import.meta.resolve('@novnc/novnc'))));
/** How long a WebSocket peer has to answer the close when the service stops. */
const CLOSE_ANSWER_MS = 1_000;
const LIVE_VIEW_PAGE = new URL('../static/live-view.html', import.meta.url);

/**
 * The session WebSockets (`/browser-sandbox-ws` for CDP, `/vnc-ws` for the live view) and the
 * live-view page with noVNC. They sit outside /api and take no API key: the per-session token in
 * the URL is the credential, checked before the upgrade (404 unknown or closed, 401 wrong token).
 */
export async function sessionSocketRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const sessions = deps.services.sessions;
  const authorized = new WeakMap<FastifyRequest, LiveSession>();

  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), public: true };
  });
  await app.register(websocket, {
    options: { maxPayload: 256 * 1024 * 1024, perMessageDeflate: false },
    preClose(done) {
      const { clients } = this.websocketServer;
      for (const client of clients) client.close(1001, 'the service is stopping');
      // The plugin's own close waits for each peer's answer, up to ws's 30 s: a client that
      // never answers would hold the server's close that long.
      setTimeout(() => {
        for (const client of clients) client.terminate();
      }, CLOSE_ANSWER_MS).unref();
      done();
    },
  });
  await app.register(fastifyStatic, {
    root: NOVNC_ROOT,
    prefix: '/live-view/novnc/',
    decorateReply: false,
    index: false,
    schemaHide: true,
  });

  const authorize = async (request: FastifyRequest) => {
    // A parameter given twice arrives as an array; only a single value names a session or opens it.
    const { sessionId, token } = request.query as Record<string, unknown>;
    const result = sessions.authorize(
      typeof sessionId === 'string' ? sessionId : undefined,
      typeof token === 'string' ? token : undefined,
    );
    if (result === 'not-found') throw notFound('session');
    if (result === 'unauthorized') throw new ApiError(401, 'missing or wrong session token');
    authorized.set(request, result);
  };

  app.get(
    '/browser-sandbox-ws',
    { websocket: true, preValidation: authorize },
    (socket, request) => {
      bridgeBrowser(sessions, authorized.get(request)!, socket);
    },
  );

  app.get(
    '/vnc-ws',
    {
      websocket: true,
      preValidation: async (request) => {
        await authorize(request);
        if (authorized.get(request)!.headless)
          throw badRequest(
            'sessionId',
            'live view is only available for visible (headless: false) sessions',
          );
      },
    },
    (socket, request) => {
      void bridgeVnc(sessions, authorized.get(request)!, socket);
    },
  );

  const page = await readFile(LIVE_VIEW_PAGE, 'utf8');
  app.get('/live-view', { schema: { hide: true } }, async (_request, reply) => {
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer');
    return page;
  });
}
