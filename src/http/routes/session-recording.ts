import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { SessionRecording as Recording } from '../../sessions/index.ts';
import type { RouteDeps } from '../deps.ts';
import { SessionFileBytes, SessionParams, SessionRecording } from '../schemas/sessions.ts';
import { mapped, sessionRoute } from './session-errors.ts';

/**
 * A recording as one JSON document, written as its events are read: a long session's events are
 * never held in memory whole. The stored lines are JSON already (the recorder's own), so they are
 * joined, not parsed.
 */
export function sendRecording(reply: FastifyReply, recording: Recording): FastifyReply {
  const { events, ...head } = recording;
  async function* body() {
    yield `${JSON.stringify(head).slice(0, -1)},"events":[`;
    let first = true;
    for await (const line of events) {
      if (line.length === 0) continue;
      yield first ? line : `,${line}`;
      first = false;
    }
    yield ']}';
  }
  return reply
    .type('application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(Readable.from(body()));
}

export const sessionRecordingRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const sessions = deps.services.sessions;

  app.get(
    '/v1/browser-sandbox/session/:id/recording',
    sessionRoute(
      "A recorded session's rrweb events (live or closed), with a short-lived token and the replay page's URL",
      SessionRecording,
      { params: SessionParams },
    ),
    async (request, reply) => {
      const recording = await mapped(() =>
        sessions.recordings.ofUser(request.user.userId, request.params.id),
      );
      return sendRecording(reply, recording);
    },
  );

  app.get(
    '/v1/browser-sandbox/session/:id/recording.webm',
    sessionRoute(
      "A closed visible session's video (WebM), when it was created with record: { video: true }",
      SessionFileBytes,
      { params: SessionParams, produces: ['video/webm'] },
    ),
    async (request, reply) => {
      const video = await mapped(() =>
        sessions.recordings.videoOfUser(request.user.userId, request.params.id),
      );
      return reply
        .type('video/webm')
        .header('content-length', video.size)
        .header('cache-control', 'no-store')
        .send(video.stream);
    },
  );
};
