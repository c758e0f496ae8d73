import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ProxyTable } from './geo-proxy.ts';
import { BlockedDestinationError, checkUrl, guardedLookup, resolveChecked, type NetworkPolicy } from './ssrf.ts';
import { forwardThrough, tunnelThrough } from './upstream-proxy.ts';

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
  /** `http://127.0.0.1:PORT`, for `--proxy-server`: goes to destinations directly. */
  url: string;
  port: number;
  /**
   * The listener that sends everything through the upstream proxy of `route` (a key of the
   * proxy table: a country code or `*`), for a browser context's or a session browser's proxy;
   * undefined for a route not configured.
   */
  routeUrl(route: string): string | undefined;
  /** Destinations refused so far, newest last (bounded); lets callers explain an aborted request. */
  refusals(): string[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const MAX_REFUSALS_KEPT = 200;
const UPSTREAM_CONNECT_TIMEOUT_MS = 15_000;
const UPSTREAM_AUTH_FAILED = 'the upstream proxy refused its credentials (HTTP 407)';
// What a page sees when a destination cannot be reached. The socket's own error (`connect
// ECONNREFUSED 10.0.0.7:6379`, a resolver's answer) stays out of it: written into the page it
// would tell a caller which internal ports are open and how names resolve here.
const UNREACHABLE = 'the destination could not be reached';

function refusalMessage(err: unknown): string | undefined {
  if (err instanceof BlockedDestinationError) return err.message;
  const cause = (err as { cause?: unknown })?.cause;
  return cause instanceof BlockedDestinationError ? cause.message : undefined;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/**
 * Starts the proxy: one loopback listener going direct, and one per entry of `upstreams` going
 * through that upstream proxy. A listener per route, rather than a route named in credentials,
 * keeps Playwright from intercepting every request of a context to answer proxy auth, and lets a
 * session browser be pointed at a route with nothing for its CDP client to answer.
 */
export async function startEgressProxy(policy: NetworkPolicy, upstreams: ProxyTable = new Map()): Promise<EgressProxy> {
  const lookup = guardedLookup(policy);
  const refused: string[] = [];
  const sockets = new Set<Socket | Duplex>();
  const remember = (message: string) => {
    refused.push(message);
    if (refused.length > MAX_REFUSALS_KEPT) refused.shift();
  };
  const track = (socket: Socket | Duplex) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };

  /**
   * Judges a destination before anything is sent. Going direct, the checked lookup judges the
   * address at connect time. Through an upstream proxy, which resolves the name itself, we
   * resolve and judge it here first: that narrows the DNS-rebinding window to the moment between
   * the two lookups but cannot close it.
   */
  const admit = async (target: URL, upstream: URL | undefined) => {
    checkUrl(target, policy);
    if (upstream) await resolveChecked(target.hostname, policy);
  };

  const forward = (upstream: URL | undefined) => async (req: IncomingMessage, res: ServerResponse) => {
    let target: URL | undefined;
    try {
      target = new URL(req.url ?? '');
      // Browsers send https through CONNECT; an absolute-form https:// request would make the direct
      // request below throw outside this try, an unhandled rejection that stops the whole service.
      if (!upstream && target.protocol === 'https:') {
        res.writeHead(502, { 'content-type': 'text/plain' }).end('send https:// requests through CONNECT');
        return;
      }
      await admit(target, upstream);
    } catch (err) {
      // A name that does not resolve is the destination's failure, not a refusal.
      const refusal = refusalMessage(err) ?? (target ? undefined : `bad proxy request: ${req.url}`);
      if (refusal) remember(refusal);
      const message = refusal ?? UNREACHABLE;
      res.writeHead(refusal ? 403 : 502, { 'content-type': 'text/plain', ...(refusal ? { 'x-webdata-blocked': '1' } : {}) }).end(message);
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    const onResponse = (up: IncomingMessage) => {
      // The browser would take a 407 for the egress proxy asking it for credentials.
      if (upstream && up.statusCode === 407) {
        up.resume();
        res.writeHead(502, { 'content-type': 'text/plain' }).end(UPSTREAM_AUTH_FAILED);
        return;
      }
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
      res.writeHead(up.statusCode ?? 502, up.statusMessage, out);
      up.pipe(res);
    };
    const outbound = upstream ? forwardThrough(upstream, target, req.method ?? 'GET', headers, onResponse) : httpRequest(target, { method: req.method, headers, lookup }, onResponse);
    outbound.on('error', (err) => {
      const message = refusalMessage(err);
      if (message) remember(message);
      if (!res.headersSent) res.writeHead(message ? 403 : 502, { 'content-type': 'text/plain', ...(message ? { 'x-webdata-blocked': '1' } : {}) });
      res.end(message ?? UNREACHABLE);
    });
    req.pipe(outbound);
  };

  const open = (host: string, port: number): Promise<Duplex> =>
    new Promise((resolve, reject) => {
      const socket = connect({ host, port, lookup });
      socket.once('connect', () => resolve(socket));
      socket.once('error', reject);
    });

  const tunnel = (upstream: URL | undefined) => async (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    const [host, portText] = splitHostPort(req.url ?? '');
    const port = Number(portText || 443);
    const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    let target: URL;
    try {
      target = new URL(`https://${authority}/`);
      checkUrl(target, policy);
    } catch (err) {
      const message = refusalMessage(err) ?? `bad CONNECT target: ${req.url}`;
      remember(message);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nx-webdata-blocked: 1\r\n\r\n${message}`);
      return;
    }
    let outbound: Duplex;
    try {
      await admit(target, upstream);
      outbound = upstream ? await tunnelThrough(upstream, authority, UPSTREAM_CONNECT_TIMEOUT_MS) : await open(host, port);
    } catch (err) {
      const message = refusalMessage(err);
      if (message) remember(message);
      client.end(`HTTP/1.1 ${message ? '403 Forbidden' : '502 Bad Gateway'}\r\ncontent-type: text/plain\r\n${message ? 'x-webdata-blocked: 1\r\n' : ''}\r\n${message ?? UNREACHABLE}`);
      return;
    }
    if (client.destroyed) {
      outbound.destroy();
      return;
    }
    track(outbound);
    outbound.on('error', () => client.destroy());
    client.on('close', () => outbound.destroy());
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) outbound.write(head);
    outbound.pipe(client);
    client.pipe(outbound);
  };

  const servers: Server[] = [];
  const start = async (upstream: URL | undefined) => {
    const server = createServer((req, res) => void forward(upstream)(req, res));
    server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => void tunnel(upstream)(req, client, head));
    server.on('connection', track);
    servers.push(server);
    return listen(server);
  };
  const port = await start(undefined);
  const routes = new Map<string, string>();
  for (const [route, upstream] of upstreams) routes.set(route, `http://127.0.0.1:${await start(upstream)}`);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    routeUrl: (route) => routes.get(route),
    refusals: () => [...refused],
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}

function splitHostPort(authority: string): [string, string] {
  const v6 = authority.match(/^\[([^\]]+)\](?::(\d+))?$/);
  if (v6) return [v6[1]!, v6[2] ?? ''];
  const at = authority.lastIndexOf(':');
  return at < 0 ? [authority, ''] : [authority.slice(0, at), authority.slice(at + 1)];
}
