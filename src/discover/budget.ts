import { FetchFailure, type HttpEngine, type HttpResponse } from '../acquire/index.ts';
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
    return this.signal.aborted || this.requests >= this.#limits.maxRequests || this.bytes >= this.#limits.maxTotalBytes;
  }

  /**
   * Fetches a URL, or answers undefined when the budget is spent, the fetch failed or the status
   * is not 2xx; failures are noted for the log, never thrown.
   */
  async get(url: string, maxBytes: number): Promise<HttpResponse | undefined> {
    if (this.exhausted) {
      this.failures.set(url, 'the map ran out of time or budget');
      return undefined;
    }
    this.requests++;
    const remaining = this.#limits.maxTotalBytes - this.bytes;
    try {
      const res = await this.#http.fetch(url, { signal: this.signal, maxBytes: Math.min(maxBytes, remaining) });
      this.bytes += res.body.length;
      if (res.statusCode < 200 || res.statusCode >= 300) {
        this.failures.set(url, `answered HTTP ${res.statusCode}`);
        return undefined;
      }
      return res;
    } catch (err) {
      this.failures.set(url, err instanceof FetchFailure ? err.message : (err as Error).message);
      return undefined;
    }
  }

  /** Counts bytes produced after the engine, such as a gzip sitemap inflated here. */
  addBytes(n: number): void {
    this.bytes += n;
  }

  get bytesLeft(): number {
    return Math.max(0, this.#limits.maxTotalBytes - this.bytes);
  }
}
