import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { tooMany } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route only forwards to other routes (MCP's tools), which take their own places. */
    forwards?: boolean;
  }
  interface FastifyInstance {
    /** Takes one of the user's in-flight places (429 when none is left); call the answer to hand it back. */
    takeInflight(userId: string): () => void;
  }
}

/**
 * Caps the requests one user has in flight. Scrapes and searches hold outbound connections and
 * worker time; one client opening hundreds at once would starve everyone else.
 */
export const inflightPlugin = fp<{ maxPerUser: number }>(async (app: FastifyInstance, opts) => {
  const inflight = new Map<string, number>();
  app.decorate('takeInflight', (userId: string) => {
    const current = inflight.get(userId) ?? 0;
    if (current >= opts.maxPerUser)
      throw tooMany(`more than ${opts.maxPerUser} requests in flight for this key`, 1);
    inflight.set(userId, current + 1);
    return () => {
      const left = (inflight.get(userId) ?? 1) - 1;
      if (left <= 0) inflight.delete(userId);
      else inflight.set(userId, left);
    };
  });
  // Counted from the moment the request is authenticated, before its body is read: a client
  // trickling bodies holds places like any other, instead of piling up uncounted.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.user || request.routeOptions.config.forwards) return;
    // The place is handed back when the response closes, sent or not: onResponse never runs for a
    // client that went away, and a place kept for it would lock the key out for good.
    reply.raw.once('close', app.takeInflight(request.user.userId));
  });
});
