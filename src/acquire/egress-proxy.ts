import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { BlockedDestinationError, checkUrl, guardedLookup, type NetworkPolicy } from './ssrf.ts';

/**
 * A forward proxy on loopback that every browser we launch is pointed at (`--proxy-server`, with
 * `--proxy-bypass-list=<-loopback>` so not even localhost skips it). It applies the SSRF guard to
 * every request a page makes, navigations, subresources, XHR, WebSockets and service workers
 * alike, and resolves names itself so the address checked is the address connected to. Request
 * interception inside the browser cannot promise that: it misses some request kinds, and the
 * browser would resolve the name again on its own.
 *
 * Hand-written because the proxy packages on npm (http-proxy, proxy-chain) do not let a checked
 * lookup decide each connection; the protocol part here is small (absolute-form requests and
 * CONNECT tunnels).
 */
export interface EgressProxy {
  /** `http://127.0.0.1:PORT`, for `--proxy-server`. */
  url: string;
  port: number;
  /** Destinations refused so far, newest last (bounded); lets callers explain an aborted request. */
  refusals(): string[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const MAX_REFUSALS_KEPT = 200;

function refusalMessage(err: unknown): string | undefined {
  if (err instanceof BlockedDestinationError) return err.message;
  const cause = (err as { cause?: unknown })?.cause;
  return cause instanceof BlockedDestinationError ? cause.message : undefined;
}

export async function startEgressProxy(policy: NetworkPolicy): Promise<EgressProxy> {
  const lookup = guardedLookup(policy);
  const refused: string[] = [];
  const sockets = new Set<Socket | Duplex>();
  const remember = (message: string) => {
    refused.push(message);
    if (refused.length > MAX_REFUSALS_KEPT) refused.shift();
  };

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      checkUrl(target, policy);
    } catch (err) {
      const message = refusalMessage(err) ?? `bad proxy request: ${req.url}`;
      remember(message);
      res.writeHead(403, { 'content-type': 'text/plain', 'x-webdata-blocked': '1' }).end(message);
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    const upstream = httpRequest(target, { method: req.method, headers, lookup }, (up) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
      res.writeHead(up.statusCode ?? 502, up.statusMessage, out);
      up.pipe(res);
    });
    upstream.on('error', (err) => {
      const message = refusalMessage(err);
      if (message) remember(message);
      if (!res.headersSent) res.writeHead(message ? 403 : 502, { 'content-type': 'text/plain', ...(message ? { 'x-webdata-blocked': '1' } : {}) });
      res.end(message ?? `upstream error: ${err.message}`);
    });
    req.pipe(upstream);
  };

  const tunnel = (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const [host, portText] = splitHostPort(req.url ?? '');
    const port = Number(portText || 443);
    try {
      checkUrl(new URL(`https://${host.includes(':') ? `[${host}]` : host}:${port}/`), policy);
    } catch (err) {
      const message = refusalMessage(err) ?? `bad CONNECT target: ${req.url}`;
      remember(message);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nx-webdata-blocked: 1\r\n\r\n${message}`);
      return;
    }
    const upstream = connect({ host, port, lookup });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (err) => {
      const message = refusalMessage(err);
      if (message) remember(message);
      if (upstream.connecting || !upstream.readyState || upstream.readyState === 'opening') {
        client.end(`HTTP/1.1 ${message ? '403 Forbidden' : '502 Bad Gateway'}\r\ncontent-type: text/plain\r\n\r\n${message ?? err.message}`);
      } else client.destroy();
    });
    client.on('close', () => upstream.destroy());
  };

  const server: Server = createServer(forward);
  server.on('connect', tunnel);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    refusals: () => [...refused],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function splitHostPort(authority: string): [string, string] {
  const v6 = authority.match(/^\[([^\]]+)\](?::(\d+))?$/);
  if (v6) return [v6[1]!, v6[2] ?? ''];
  const at = authority.lastIndexOf(':');
  return at < 0 ? [authority, ''] : [authority.slice(0, at), authority.slice(at + 1)];
}
