import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { registry } from '../../metrics/index.ts';
import { ApiError } from '../errors.ts';

function isLoopback(address: string): boolean {
  try {
    return ipaddr.process(address).range() === 'loopback';
  } catch {
    return false;
  }
}

/**
 * Every address the request came through: the socket's peer and, when WEBDATA_TRUST_PROXY is on,
 * each `X-Forwarded-For` entry. All must be loopback: the forwarded client alone can be written by
 * anyone who reaches the port (or prepended before what a loopback proxy appends).
 */
function cameFromLoopback(request: FastifyRequest): boolean {
  const hops = [request.socket.remoteAddress ?? '', ...(request.ips ?? [request.ip])];
  return hops.every(isLoopback);
}

function tokenMatches(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from(
    request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? '',
  );
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Prometheus text format. Not behind API keys: keys are users, and these figures are the whole
 * service's (every user's traffic and charges added up), which no user should read. With
 * WEBDATA_METRICS_TOKEN set the scraper presents that token; without it only loopback clients
 * (a Prometheus or agent on the same host) are answered.
 */
export const metricsRoutes: FastifyPluginAsync<{ token: string }> = async (app, opts) => {
  app.get(
    '/metrics',
    { config: { public: true, servedUnderPressure: true }, schema: { hide: true } },
    async (request, reply) => {
      const allowed = opts.token ? tokenMatches(request, opts.token) : cameFromLoopback(request);
      if (!allowed) {
        throw opts.token
          ? new ApiError(
              401,
              'missing or wrong metrics token: send Authorization: Bearer <WEBDATA_METRICS_TOKEN>',
              { headers: { 'www-authenticate': 'Bearer' } },
            )
          : new ApiError(404, 'no route for GET /metrics');
      }
      reply.type(registry.contentType);
      return registry.metrics();
    },
  );
};
