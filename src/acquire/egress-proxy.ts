import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ProxyTable } from '../settings/index.ts';
import { keep, LaneState } from './egress-lane-state.ts';
import {
  admitDestination,
  BlockedDestinationError,
  checkUrl,
  guardedLookup,
  type NetworkPolicy,
  refusalMessage,
} from './ssrf.ts';
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
   * proxy table: a country code or `*`), for a session browser's proxy; undefined for a route
   * not configured.
   */
  routeUrl(route: string): string | undefined;
  /**
   * A listener of its own for one browser context, direct or through `route`'s upstream proxy:
   * what it refuses is told to that context alone, and what it may load is capped. Throws for a
   * route not configured.
   */
  openLane(route?: string): Promise<EgressLane>;
  /**
   * Everything any listener refused, newest last (bounded): the operator's view. A user's request
   * is explained from its own lane's refusals, never from this.
   */
  refusals(): string[];
  close(): Promise<void>;
}

/** One browser context's way out (see openLane). */
export interface EgressLane {
  /** `http://127.0.0.1:PORT`, for the context's proxy. */
  url: string;
  /** What this lane refused or cut, newest last (bounded); lets callers explain an aborted request. */
  refusals(): string[];
  close(): Promise<void>;
}

export interface EgressLimits {
  /** Largest response body passed on over plain HTTP; the response is cut beyond it. */
  maxResponseBytes: number;
  /**
   * Bytes one lane may bring in from destinations, over all its requests and tunnels (TLS hides
   * where one response ends inside a tunnel, so only the whole can be counted there).
   */
  maxLaneBytes: number;
}

const NO_LIMITS: EgressLimits = {
  maxResponseBytes: Number.POSITIVE_INFINITY,
  maxLaneBytes: Number.POSITIVE_INFINITY,
};

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const UPSTREAM_CONNECT_TIMEOUT_MS = 15_000;
const UPSTREAM_AUTH_FAILED = 'the upstream proxy refused its credentials (HTTP 407)';
// What a page sees when a destination cannot be reached. The socket's own error (`connect
// ECONNREFUSED 10.0.0.7:6379`, a resolver's answer) stays out of it: written into the page it
// would tell a caller which internal ports are open and how names resolve here.
const UNREACHABLE = 'the destination could not be reached';

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

/**
 * Starts the proxy: one loopback listener going direct, one per entry of `upstreams` going
 * through that upstream proxy, and a listener per browser context on demand (openLane). A
 * listener per route or context, rather than a name in proxy credentials, keeps Playwright from
 * intercepting every request of a context to answer proxy auth, and lets a session browser be
 * pointed at a route with nothing for its CDP client to answer. The port a request arrives on
 * says whose it is, so one user's refusals are never matched against another's requests.
 */
export async function startEgressProxy(
  policy: NetworkPolicy,
  upstreams: ProxyTable = new Map(),
  limits: EgressLimits = NO_LIMITS,
): Promise<EgressProxy> {
  const lookup = guardedLookup(policy);
  const everyRefusal: string[] = [];
  const log = (message: string) => keep(everyRefusal, message);
  const allSockets = new Set<Socket | Duplex>();
  const trackAll = (socket: Socket | Duplex) => {
    allSockets.add(socket);
    socket.on('close', () => allSockets.delete(socket));
  };

  const forward =
    (upstream: URL | undefined, lane: LaneState) =>
    async (req: IncomingMessage, res: ServerResponse) => {
      let target: URL | undefined;
      try {
        target = new URL(req.url ?? '');
        // Browsers send https through CONNECT; an absolute-form https:// request would make the direct
        // request below throw outside this try, an unhandled rejection that stops the whole service.
        if (!upstream && target.protocol === 'https:') {
          res
            .writeHead(502, { 'content-type': 'text/plain' })
            .end('send https:// requests through CONNECT');
          return;
        }
        if (lane.spent)
          throw new BlockedDestinationError(
            `refused to fetch ${target.host}: the page loaded more than ${lane.budget} bytes`,
          );
        await admitDestination(target, policy, upstream !== undefined);
      } catch (err) {
        // A name that does not resolve is the destination's failure, not a refusal.
        const refusal =
          refusalMessage(err) ?? (target ? undefined : `bad proxy request: ${req.url}`);
        if (refusal) lane.remember(refusal);
        const message = refusal ?? UNREACHABLE;
        res
          .writeHead(refusal ? 403 : 502, {
            'content-type': 'text/plain',
            ...(refusal ? { 'x-webdata-blocked': '1' } : {}),
          })
          .end(message);
        return;
      }
      const host = target.host;
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
      const onResponse = (up: IncomingMessage) => {
        // The browser would take a 407 for the egress proxy asking it for credentials.
        if (upstream && up.statusCode === 407) {
          up.resume();
          res.writeHead(502, { 'content-type': 'text/plain' }).end(UPSTREAM_AUTH_FAILED);
          return;
        }
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(up.headers))
          if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
        res.writeHead(up.statusCode ?? 502, up.statusMessage, out);
        res.on('error', () => undefined);
        // Past a cap the response is cut, not ended: a browser must not take a truncated body for
        // the whole page.
        let received = 0;
        up.on('data', (chunk: Buffer) => {
          received += chunk.length;
          const withinLane = lane.take(chunk.length);
          if (received > limits.maxResponseBytes)
            lane.remember(
              `the response from ${host} is larger than ${limits.maxResponseBytes} bytes; it was cut`,
            );
          if (received > limits.maxResponseBytes || !withinLane) {
            up.destroy();
            res.destroy();
          }
        });
        up.pipe(res);
      };
      const outbound = upstream
        ? forwardThrough(upstream, target, req.method ?? 'GET', headers, onResponse)
        : httpRequest(target, { method: req.method, headers, lookup }, onResponse);
      outbound.on('error', (err) => {
        const message = refusalMessage(err);
        if (message) lane.remember(message);
        if (res.destroyed) return;
        if (!res.headersSent)
          res.writeHead(message ? 403 : 502, {
            'content-type': 'text/plain',
            ...(message ? { 'x-webdata-blocked': '1' } : {}),
          });
        res.end(message ?? UNREACHABLE);
      });
      // A browser that stops reading (page closed, request cancelled) should not keep the
      // destination streaming into a dead response.
      res.on('close', () => {
        if (!res.writableFinished) outbound.destroy();
      });
      req.pipe(outbound);
    };

  const open = (host: string, port: number): Promise<Duplex> =>
    new Promise((resolve, reject) => {
      const socket = connect({ host, port, lookup });
      socket.once('connect', () => resolve(socket));
      socket.once('error', reject);
    });

  const tunnel =
    (upstream: URL | undefined, lane: LaneState) =>
    async (req: IncomingMessage, client: Duplex, head: Buffer) => {
      trackAll(client);
      lane.track(client);
      client.on('error', () => client.destroy());
      const [host, portText] = splitHostPort(req.url ?? '');
      const port = Number(portText || 443);
      const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      let target: URL;
      try {
        target = new URL(`https://${authority}/`);
        if (lane.spent)
          throw new BlockedDestinationError(
            `refused to fetch ${authority}: the page loaded more than ${lane.budget} bytes`,
          );
        checkUrl(target, policy);
      } catch (err) {
        const message = refusalMessage(err) ?? `bad CONNECT target: ${req.url}`;
        lane.remember(message);
        client.end(
          `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nx-webdata-blocked: 1\r\n\r\n${message}`,
        );
        return;
      }
      let outbound: Duplex;
      try {
        await admitDestination(target, policy, upstream !== undefined);
        outbound = upstream
          ? await tunnelThrough(upstream, authority, UPSTREAM_CONNECT_TIMEOUT_MS)
          : await open(host, port);
      } catch (err) {
        const message = refusalMessage(err);
        if (message) lane.remember(message);
        client.end(
          `HTTP/1.1 ${message ? '403 Forbidden' : '502 Bad Gateway'}\r\ncontent-type: text/plain\r\n${message ? 'x-webdata-blocked: 1\r\n' : ''}\r\n${message ?? UNREACHABLE}`,
        );
        return;
      }
      if (client.destroyed) {
        outbound.destroy();
        return;
      }
      trackAll(outbound);
      lane.track(outbound);
      outbound.on('error', () => client.destroy());
      client.on('close', () => outbound.destroy());
      outbound.on('data', (chunk: Buffer) => {
        if (lane.take(chunk.length)) return;
        outbound.destroy();
        client.destroy();
      });
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) outbound.write(head);
      outbound.pipe(client);
      client.pipe(outbound);
    };

  const start = async (upstream: URL | undefined, lane: LaneState): Promise<Server> => {
    const server = createServer((req, res) => void forward(upstream, lane)(req, res));
    server.on(
      'connect',
      (req: IncomingMessage, client: Duplex, head: Buffer) =>
        void tunnel(upstream, lane)(req, client, head),
    );
    server.on('connection', (socket: Socket) => {
      trackAll(socket);
      lane.track(socket);
    });
    await listen(server);
    return server;
  };
  const closeServer = (server: Server) =>
    new Promise<void>((resolve) => server.close(() => resolve()));
  const portOf = (server: Server) => (server.address() as AddressInfo).port;

  // The shared listeners serve session browsers, which nobody asks for refusals and which may
  // run for hours: no budget.
  const shared = [await start(undefined, new LaneState(Number.POSITIVE_INFINITY, log))];
  const routes = new Map<string, URL>();
  const routeUrls = new Map<string, string>();
  for (const [route, upstream] of upstreams) {
    const server = await start(upstream, new LaneState(Number.POSITIVE_INFINITY, log));
    shared.push(server);
    routes.set(route, upstream);
    routeUrls.set(route, `http://127.0.0.1:${portOf(server)}`);
  }
  const lanes = new Set<Server>();
  const port = portOf(shared[0]!);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    routeUrl: (route) => routeUrls.get(route),
    refusals: () => [...everyRefusal],
    async openLane(route) {
      const upstream = route === undefined ? undefined : routes.get(route);
      if (route !== undefined && !upstream) throw new Error(`no egress route for proxy ${route}`);
      const state = new LaneState(limits.maxLaneBytes, log);
      const server = await start(upstream, state);
      lanes.add(server);
      return {
        url: `http://127.0.0.1:${portOf(server)}`,
        refusals: () => [...state.refused],
        close: async () => {
          if (!lanes.delete(server)) return;
          for (const socket of state.sockets) socket.destroy();
          await closeServer(server);
        },
      };
    },
    close: async () => {
      for (const s of allSockets) s.destroy();
      await Promise.all([...shared, ...lanes].map(closeServer));
      lanes.clear();
    },
  };
}

function splitHostPort(authority: string): [string, string] {
  const v6 = authority.match(/^\[([^\]]+)\](?::(\d+))?$/);
  if (v6) return [v6[1]!, v6[2] ?? ''];
  const at = authority.lastIndexOf(':');
  return at < 0 ? [authority, ''] : [authority.slice(0, at), authority.slice(at + 1)];
}
