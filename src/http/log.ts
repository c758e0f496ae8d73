import querystring from 'node:querystring';
import type { FastifyRequest } from 'fastify';

/**
 * What the request log says about a request: Fastify's default fields, with the credentials that
 * travel in URLs taken out. A session's WebSocket and live-view URLs carry its token in the query
 * (`?token=`), and an artifact's URL is its own secret (`/files/<token>/<name>`); either in a log
 * would let whoever reads the log open another user's browser or files.
 *
 * Names are matched in the most lenient reading any router, proxy or query parser could give
 * them, so no spelling of a name keeps its secret in the log: percent-decoded until nothing
 * changes (`%2566iles` is `files` after two rounds), doubled slashes collapsed, `;params` dropped
 * from a path segment, dot segments resolved, and `[...]` dropped from a query key (`token[]` is `token` to qs-style
 * parsers).
 */

/** `querystring.unescape` keeps an escape that is not valid UTF-8 instead of throwing. */
function decodedFully(part: string): string {
  let current = part;
  for (;;) {
    const next = querystring.unescape(current);
    if (next === current) return current;
    current = next;
  }
}

/**
 * The path's segments as a lenient router or proxy reads them: decoded, no empty ones, no
 * `;params`, dot segments resolved.
 */
function normalisedSegments(path: string): string[] {
  const out: string[] = [];
  for (const raw of decodedFully(path).split('/')) {
    const segment = raw.replace(/;.*$/s, '');
    if (segment === '..') out.pop();
    else if (segment !== '' && segment !== '.') out.push(segment);
  }
  return out;
}

/**
 * A path that reads as `/files/<token>/...` in any spelling is logged in its normalised form with
 * the token replaced; a raw form cannot be cut safely when an escape hides a slash.
 */
function redactPath(path: string): string {
  const segments = normalisedSegments(path);
  if (segments.length < 2 || segments[0]!.trim().toLowerCase() !== 'files') return path;
  return `/${['files', '[redacted]', ...segments.slice(2)].join('/')}`;
}

function isTokenKey(name: string): boolean {
  return (
    decodedFully(name.replace(/\+/g, ' '))
      .replace(/(\[[^\]]*\])+$/, '')
      .trim()
      .toLowerCase() === 'token'
  );
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return isTokenKey(name) ? `${name}=[redacted]` : pair;
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
