import type { FastifyRequest } from 'fastify';

/**
 * What the request log says about a request: Fastify's default fields, with the credentials that
 * travel in URLs taken out. A session's WebSocket and live-view URLs carry its token in the query
 * (`?token=`), and an artifact's URL is its own secret (`/files/<token>/<name>`); either in a log
 * would let whoever reads the log open another user's browser or files.
 *
 * Names are matched after percent-decoding, as the router and the query parser read them:
 * `/%66iles/<token>/x` reaches the files route and `&%74oken=` is the `token` parameter.
 */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

function redactPath(path: string): string {
  const segments = path.split('/');
  // segments[0] is the empty text before the leading slash.
  if (segments.length > 2 && decoded(segments[1]!).toLowerCase() === 'files')
    segments[2] = '[redacted]';
  return segments.join('/');
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return decoded(name).trim().toLowerCase() === 'token' ? `${name}=[redacted]` : pair;
    })
    .join('&');
}

function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return redactPath(url);
  return `${redactPath(url.slice(0, q))}?${redactQuery(url.slice(q + 1))}`;
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
