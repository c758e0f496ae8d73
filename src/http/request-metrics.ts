import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { countRequest } from '../metrics/index.ts';

/** Counts every answered request by its route template and status, with its latency. */
export const requestMetricsPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onResponse', async (request, reply) => {
    countRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
});
