import {
  type ClientRequest,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type RequestOptions,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';

/**
 * Talking to an operator's upstream forward proxy (a geo proxy provider): absolute-form requests
 * for http:// targets, CONNECT tunnels for everything else. The proxy's own address is operator
 * configuration and is not put through the SSRF guard; the destinations are, by the callers.
 */

/** `Proxy-Authorization` for the credentials in the proxy URL, as providers expect them. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined;
  return `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
}

function proxyRequest(
  proxy: URL,
  opts: RequestOptions,
  onResponse?: (res: IncomingMessage) => void,
): ClientRequest {
  const https = proxy.protocol === 'https:';
  const base: RequestOptions = {
    host: proxy.hostname.replace(/^\[|\]$/g, ''),
    port: Number(proxy.port) || (https ? 443 : 80),
    ...opts,
  };
  return https ? httpsRequest(base, onResponse) : httpRequest(base, onResponse);
}

/** Sends an http:// request through the proxy in absolute form. */
export function forwardThrough(
  proxy: URL,
  target: URL,
  method: string,
  headers: OutgoingHttpHeaders,
  onResponse: (res: IncomingMessage) => void,
): ClientRequest {
  const auth = proxyAuthorization(proxy);
  return proxyRequest(
    proxy,
    {
      method,
      path: target.href,
      headers: { ...headers, host: target.host, ...(auth ? { 'proxy-authorization': auth } : {}) },
    },
    onResponse,
  );
}

/** Opens a CONNECT tunnel to `authority` (host:port) through the proxy; rejects unless it answers 200. */
export function tunnelThrough(proxy: URL, authority: string, timeoutMs: number): Promise<Duplex> {
  const auth = proxyAuthorization(proxy);
  return new Promise((resolve, reject) => {
    const req = proxyRequest(proxy, {
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...(auth ? { 'proxy-authorization': auth } : {}) },
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(
        new Error(`the upstream proxy did not answer CONNECT ${authority} within ${timeoutMs} ms`),
      ),
    );
    req.once('connect', (res, socket, head) => {
      req.setTimeout(0);
      if (res.statusCode !== 200) {
        socket.destroy();
        reject(new Error(`the upstream proxy answered ${res.statusCode} to CONNECT ${authority}`));
        return;
      }
      if (head.length) socket.unshift(head);
      resolve(socket);
    });
    req.once('error', reject);
    req.end();
  });
}
