import type { FastifyRequest } from 'fastify';

/**
 * What the request log says about a request: Fastify's default fields, with the credentials that
 * travel in URLs taken out. A session's WebSocket and live-view URLs carry its token in the query
 * (`?token=`), and an artifact's URL is its own secret (`/files/<token>/<name>`); either in a log
 * would let whoever reads the log open another user's browser or files.
 */
function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  const safePath = path.replace(/^\/files\/[^/]+\//, '/files/[redacted]/');
  const safeQuery = query.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
  return safePath + safeQuery;
}

export function requestLogFields(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
