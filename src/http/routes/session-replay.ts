import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteDeps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { ReplayQuery } from '../schemas/sessions.ts';
import { mapped } from './session-errors.ts';
import { sendRecording } from './session-recording.ts';

const PLAYER_DIST = dirname(fileURLToPath(import.meta.resolve('rrweb-player')));
const STATIC = new URL('../static/', import.meta.url);

/** What the replay page and its assets are, by the name each is served under. */
const ASSETS: Record<string, { path: string; type: string }> = {
  'rrweb-player.js': {
    path: join(PLAYER_DIST, 'rrweb-player.umd.min.cjs'),
    type: 'text/javascript; charset=utf-8',
  },
  'rrweb-player.css': { path: join(PLAYER_DIST, 'style.min.css'), type: 'text/css; charset=utf-8' },
  'replay.js': {
    path: fileURLToPath(new URL('replay.js', STATIC)),
    type: 'text/javascript; charset=utf-8',
  },
  'replay.css': {
    path: fileURLToPath(new URL('replay.css', STATIC)),
    type: 'text/css; charset=utf-8',
  },
};

/**
 * The page and the replayed DOM load nothing from elsewhere: a recorded page's images and fonts
 * stay unfetched, so opening a replay tells no site it is being watched.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' blob: about:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** A replay token is `<expiry>.<mac>`; anything else given as the token is taken as an API key. */
const REPLAY_TOKEN = /^[0-9a-z]{1,12}\.[A-Za-z0-9_-]{43}$/;

/**
 * The replay page (`/replay?sessionId=...&token=...`), rrweb-player from node_modules, and the
 * recording the page reads. Outside /api and without the API key: the token opens one session's
 * recording (the short-lived one of GET .../recording, or the owner's API key); any other
 * session, key or token finds nothing (404).
 */
export const sessionReplayRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const sessions = deps.services.sessions;
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), public: true };
  });

  const page = await readFile(new URL('replay.html', STATIC), 'utf8');
  app.get('/replay', { schema: { hide: true, querystring: ReplayQuery } }, async (_r, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .send(page),
  );

  app.get('/replay/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const asset = ASSETS[(request.params as { name: string }).name];
    if (!asset) throw new ApiError(404, 'not found');
    return reply
      .type(asset.type)
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(await readFile(asset.path));
  });

  app.get(
    '/replay/recording',
    { schema: { hide: true, querystring: ReplayQuery } },
    async (request, reply) => {
      const { sessionId, token } = request.query;
      let access: { token: string } | { userId: string } = { token };
      if (!REPLAY_TOKEN.test(token)) {
        const user = await deps.keys.authenticate(token);
        if (!user) throw new ApiError(401, 'wrong or expired replay token');
        access = { userId: user.userId };
      }
      const recording = await mapped(() => sessions.recordings.forAccess(sessionId, access));
      return sendRecording(reply.header('referrer-policy', 'no-referrer'), recording);
    },
  );
};
