import { Readable } from 'node:stream';
import {
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createZstdDecompress,
} from 'node:zlib';
import { Agent, type Dispatcher, ProxyAgent, request, errors as undiciErrors } from 'undici';
import { CHROME_H2, CHROME_TLS } from './chrome-tls.ts';
import { FetchFailure } from './errors.ts';
import { presentedLocale } from './geo-locale.ts';
import type { ProxyRoute } from './geo-proxy.ts';
import { browserHeaders } from './headers.ts';
import { admitDestination, guardedLookup, type NetworkPolicy, refusalMessage } from './ssrf.ts';

export interface HttpEngineOptions {
  policy: NetworkPolicy;
  /** Whole-fetch deadline, redirects included. */
  timeoutMs: number;
  /** Largest body accepted after decompression. */
  maxBytes: number;
  maxRedirects: number;
}

export interface HttpResponse {
  /** URL of the last hop, after redirects. */
  url: string;
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Every URL visited, first to last. */
  chain: string[];
}

/** A response whose body is read as it arrives. */
export interface HttpStream {
  /** URL of the last hop, after redirects. */
  url: string;
  statusCode: number;
  headers: Record<string, string>;
  /**
   * The body with its Content-Encoding undone. It errors with a FetchFailure when it passes the
   * byte limit or the deadline; a reader that stops early must destroy it.
   */
  body: Readable;
  /** Every URL visited, first to last. */
  chain: string[];
}

export interface FetchOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Fail rather than read a body larger than this (defaults to the engine's maxBytes). */
  maxBytes?: number;
  timeoutMs?: number;
  /** Send through this upstream forward proxy (a geo proxy) instead of going direct. */
  proxy?: ProxyRoute;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function flattenHeaders(
  raw: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function decompressor(encoding: string | undefined) {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    case 'zstd':
      return createZstdDecompress();
    default:
      return undefined;
  }
}

/** A body's decoded chunks, and what ends its connection and decoder however reading ends. */
interface DecodedChunks {
  chunks: AsyncGenerator<Buffer>;
  release(): void;
}

/**
 * The decoded body as it arrives, cut off with a FetchFailure once it passes `maxBytes`; every
 * error on the way (the deadline, the connection, broken compression) is one the engine names.
 * Counting decoded bytes also stops decompression bombs.
 */
function decodedChunks(
  body: Readable,
  encoding: string | undefined,
  maxBytes: number,
  fail: (err: unknown) => Error,
): DecodedChunks {
  const decoder = decompressor(encoding);
  const source: Readable = decoder ? body.pipe(decoder) : body;
  // Errors reach the reader through its iteration; this keeps one that comes before reading
  // starts (the deadline passing) from going uncaught.
  body.on('error', (err) => decoder?.destroy(err));
  async function* limited(): AsyncGenerator<Buffer> {
    let size = 0;
    try {
      for await (const chunk of source) {
        size += (chunk as Buffer).length;
        if (size > maxBytes)
          throw new FetchFailure('too-large', `page body exceeds the limit of ${maxBytes} bytes`);
        yield chunk as Buffer;
      }
    } catch (err) {
      throw fail(err);
    }
  }
  const release = () => {
    // Nobody reads these any more, so an abort error from destroying them has no one to tell.
    for (const s of [body, decoder]) {
      if (s && !s.destroyed) s.on('error', () => {}).destroy();
    }
  };
  return { chunks: limited(), release };
}

/** Decoded chunks as a stream, for a reader that takes the body as it comes. */
function decodedBody({ chunks, release }: DecodedChunks): Readable {
  const out = Readable.from(chunks, { objectMode: false });
  // However reading ends (the end, an error, a reader that stops early), the connection goes
  // with it rather than waiting out the deadline.
  out.once('close', release);
  return out;
}

/**
 * Plain HTTP acquisition on undici. Redirects are followed by hand so that every hop goes through
 * the SSRF guard, and the dispatcher's lookup checks the very addresses it connects to. Through
 * an upstream proxy (absolute form for http://, CONNECT for https://) the proxy resolves names
 * itself, so each hop's name is resolved and judged here first; a name whose answers change
 * between our lookup and the proxy's (DNS rebinding) is the window that remains.
 */
export class HttpEngine {
  readonly #options: HttpEngineOptions;
  readonly #dispatcher: Dispatcher;
  /** One ProxyAgent per upstream route, made on first use and kept for its connections. */
  readonly #proxied = new Map<string, Dispatcher>();

  constructor(options: HttpEngineOptions) {
    this.#options = options;
    this.#dispatcher = new Agent({
      connect: {
        ...CHROME_TLS,
        preferH2: CHROME_H2.preferH2,
        lookup: guardedLookup(options.policy),
        timeout: Math.min(options.timeoutMs, 10_000),
      },
      h2Options: CHROME_H2.h2Options,
      keepAliveTimeout: 10_000,
      connections: 64,
    });
  }

  /**
   * Fetches a whole body into memory. It reads the decoded chunks itself rather than through a
   * stream made of them: one layer of stream and its turns of the event loop fewer per chunk.
   */
  async fetch(input: string, opts: FetchOptions = {}): Promise<HttpResponse> {
    const { decoded, ...res } = await this.#open(input, opts);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of decoded.chunks) chunks.push(chunk);
    } finally {
      decoded.release();
    }
    return { ...res, body: Buffer.concat(chunks) };
  }

  /**
   * Answers once the final hop's headers are in, with its body still to read. The deadline covers
   * the whole exchange, body included, and the byte limit is enforced as the body flows.
   */
  async stream(input: string, opts: FetchOptions = {}): Promise<HttpStream> {
    const { decoded, ...res } = await this.#open(input, opts);
    return { ...res, body: decodedBody(decoded) };
  }

  async #open(
    input: string,
    opts: FetchOptions,
  ): Promise<Omit<HttpStream, 'body'> & { decoded: DecodedChunks }> {
    const timeoutMs = opts.timeoutMs ?? this.#options.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    const maxBytes = opts.maxBytes ?? this.#options.maxBytes;
    const fail = (err: unknown) =>
      toFetchFailure(err, {
        timedOut: timeout.aborted,
        timeoutMs,
        callerAborted: opts.signal?.aborted ?? false,
      });
    const locale = await presentedLocale(opts.proxy?.country);
    const chain: string[] = [];
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new FetchFailure('invalid-url', `"${input}" is not a valid URL`);
    }
    try {
      for (let hop = 0; ; hop++) {
        await admitDestination(url, this.#options.policy, opts.proxy !== undefined);
        chain.push(url.href);
        const res = await request(url, {
          method: 'GET',
          headers: browserHeaders(url, {
            'Accept-Language': locale.acceptLanguage,
            ...opts.headers,
          }),
          dispatcher: opts.proxy ? this.#proxyDispatcher(opts.proxy) : this.#dispatcher,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const headers = flattenHeaders(res.headers);
        if (opts.proxy && res.statusCode === 407) {
          res.body.resume();
          throw new FetchFailure(
            'network',
            'the upstream proxy refused its credentials (HTTP 407)',
          );
        }
        const location = headers.location;
        if (REDIRECT_STATUSES.has(res.statusCode) && location) {
          res.body.resume();
          if (hop >= this.#options.maxRedirects) {
            throw new FetchFailure(
              'too-many-redirects',
              `more than ${this.#options.maxRedirects} redirects`,
              res.statusCode,
            );
          }
          try {
            url = new URL(location, url);
          } catch {
            throw new FetchFailure(
              'network',
              `redirect to an invalid location "${location}"`,
              res.statusCode,
            );
          }
          continue;
        }
        const readFail = (err: unknown) => {
          if (signal.aborted) return fail(signal.reason);
          if (err instanceof FetchFailure) return err;
          return new FetchFailure(
            'network',
            `could not read the page body: ${(err as Error).message}`,
          );
        };
        const decoded = decodedChunks(res.body, headers['content-encoding'], maxBytes, readFail);
        return { url: url.href, statusCode: res.statusCode, headers, decoded, chain };
      }
    } catch (err) {
      throw fail(err);
    }
  }

  #proxyDispatcher(route: ProxyRoute): Dispatcher {
    let dispatcher = this.#proxied.get(route.name);
    if (!dispatcher) {
      dispatcher = new ProxyAgent({
        uri: route.upstream.href,
        requestTls: CHROME_TLS,
        connectTimeout: Math.min(this.#options.timeoutMs, 10_000),
        keepAliveTimeout: 10_000,
        connections: 64,
      });
      this.#proxied.set(route.name, dispatcher);
    }
    return dispatcher;
  }

  async close(): Promise<void> {
    await Promise.all([
      this.#dispatcher.close(),
      ...[...this.#proxied.values()].map((d) => d.close()),
    ]);
  }
}

function toFetchFailure(
  err: unknown,
  ctx: { timedOut: boolean; timeoutMs: number; callerAborted: boolean },
): Error {
  if (err instanceof FetchFailure) return err;
  if (ctx.callerAborted) return err as Error;
  if (ctx.timedOut) return new FetchFailure('timeout', `timed out after ${ctx.timeoutMs} ms`);
  const refusal = refusalMessage(err);
  if (refusal) return new FetchFailure('blocked-destination', refusal);
  if (
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError ||
    err instanceof undiciErrors.ConnectTimeoutError
  ) {
    return new FetchFailure('timeout', `timed out after ${ctx.timeoutMs} ms`);
  }
  const e = err as NodeJS.ErrnoException;
  const code = e.code ?? (e.cause as NodeJS.ErrnoException | undefined)?.code;
  const detail =
    code === 'ENOTFOUND'
      ? 'host name not found'
      : code === 'ECONNREFUSED'
        ? 'connection refused'
        : e.message;
  return new FetchFailure('network', `network error: ${detail}`);
}
