import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { tooMany } from './errors.ts';

/**
 * Caps the requests one user has in flight. Scrapes and searches hold outbound connections and
 * worker time; one client opening hundreds at once would starve everyone else.
 */
export const inflightPlugin = fp<{ maxPerUser: number }>(async (app: FastifyInstance, opts) => {
  const inflight = new Map<string, number>();
  const counted = new WeakSet<object>();
  app.addHook('preHandler', async (request) => {
    if (!request.user) return;
    const current = inflight.get(request.user.userId) ?? 0;
    if (current >= opts.maxPerUser) throw tooMany(`more than ${opts.maxPerUser} requests in flight for this key`, 1);
    inflight.set(request.user.userId, current + 1);
    counted.add(request);
  });
  app.addHook('onResponse', async (request) => {
    if (!counted.has(request)) return;
    const left = (inflight.get(request.user.userId) ?? 1) - 1;
    if (left <= 0) inflight.delete(request.user.userId);
    else inflight.set(request.user.userId, left);
  });
});
