import {
  FetchFailure,
  type FetchOptions,
  type HttpEngine,
  type HttpResponse,
  type HttpStream,
} from '../acquire/index.ts';
import type { DiscoverLimits } from './limits.ts';

/**
 * The one door to the network for a map: every request goes through the HTTP engine (and so the
 * SSRF guard), and is counted against the map's deadline, request and byte budgets.
 */
export class BudgetedFetcher {
  readonly #http: HttpEngine;
  readonly #limits: DiscoverLimits;
  readonly signal: AbortSignal;
  /** Why each failed URL failed, for the log and the error of a map that found nothing. */
  readonly failures = new Map<string, string>();
  requests = 0;
  bytes = 0;

  constructor(http: HttpEngine, limits: DiscoverLimits, signal: AbortSignal) {
    this.#http = http;
    this.#limits = limits;
    this.signal = AbortSignal.any([signal, AbortSignal.timeout(limits.deadlineMs)]);
  }

  /** True once no further request may start. */
  get exhausted(): boolean {
    return (
      this.signal.aborted ||
      this.requests >= this.#limits.maxRequests ||
      this.bytes >= this.#limits.maxTotalBytes
    );
  }

  /**
   * Fetches a URL, or answers undefined when the budget is spent, the fetch failed or the status
   * is not 2xx; failures are noted for the log, never thrown.
   */
  async get(url: string, maxBytes: number): Promise<HttpResponse | undefined> {
    const res = await this.#send(url, maxBytes, (opts) => this.#http.fetch(url, opts));
    if (!res) return undefined;
    this.bytes += res.body.length;
    return this.#ok(url, res) ? res : undefined;
  }

  /**
   * Like `get`, but answers with the body still to read, so that a large document is handled as
   * it arrives. The caller counts the bytes it reads (`addBytes`) and destroys the body when done.
   */
  async open(url: string, maxBytes: number): Promise<HttpStream | undefined> {
    const res = await this.#send(url, maxBytes, (opts) => this.#http.stream(url, opts));
    if (!res) return undefined;
    if (this.#ok(url, res)) return res;
    res.body.destroy();
    return undefined;
  }

  async #send<T>(
    url: string,
    maxBytes: number,
    send: (opts: FetchOptions) => Promise<T>,
  ): Promise<T | undefined> {
    if (this.exhausted) {
      this.failures.set(url, 'the map ran out of time or budget');
      return undefined;
    }
    this.requests++;
    const remaining = this.#limits.maxTotalBytes - this.bytes;
    try {
      return await send({ signal: this.signal, maxBytes: Math.min(maxBytes, remaining) });
    } catch (err) {
      this.failures.set(url, err instanceof FetchFailure ? err.message : (err as Error).message);
      return undefined;
    }
  }

  #ok(url: string, res: { statusCode: number }): boolean {
    if (res.statusCode >= 200 && res.statusCode < 300) return true;
    this.failures.set(url, `answered HTTP ${res.statusCode}`);
    return false;
  }

  /** Counts bytes produced after the engine, such as a gzip sitemap inflated here. */
  addBytes(n: number): void {
    this.bytes += n;
  }

  get bytesLeft(): number {
    return Math.max(0, this.#limits.maxTotalBytes - this.bytes);
  }
}
