import type * as J from './job-types.ts';
import type * as S from './session-types.ts';
import type * as T from './types.ts';

export interface ClientOptions {
  /** Where the service runs, e.g. http://localhost:3000 (without /api). */
  baseUrl: string;
  apiKey: string;
  /** A fetch implementation; the global one by default. */
  fetch?: typeof fetch;
}

/** An HTTP error from the API: `status` and the body's `error` and `details`. */
export class WebdataError extends Error {
  readonly status: number;
  readonly details?: Array<{ field: string; message: string }>;
  readonly retryAfterSeconds?: number;

  constructor(
    status: number,
    message: string,
    details?: Array<{ field: string; message: string }>,
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'WebdataError';
    this.status = status;
    this.details = details;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const TERMINAL: ReadonlySet<J.JobStatus> = new Set(['completed', 'failed', 'cancelled']);

export class WebdataClient {
  readonly #base: string;
  readonly #key: string;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#key = options.apiKey;
    this.#fetch = options.fetch ?? fetch;
  }

  async #call<R>(method: string, path: string, body?: unknown): Promise<R> {
    const res = await this.#fetch(`${this.#base}${path.startsWith('/api/') ? '' : '/api'}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.#key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!res.ok && res.status !== 202) {
      const retry = res.headers.get('retry-after');
      throw new WebdataError(
        res.status,
        String(json.error ?? res.statusText),
        json.details as WebdataError['details'],
        retry ? Number(retry) : undefined,
      );
    }
    return json as R;
  }

  search(request: T.SearchWithPagesRequest): Promise<T.SearchResponse> {
    return this.#call('POST', '/v1/search', request);
  }

  scrape(request: T.ScrapeRequest): Promise<T.FetchResult> {
    return this.#call('POST', '/v1/scrape/single', request);
  }

  scrapeBatch(request: T.BatchRequest): Promise<T.BatchResponse> {
    return this.#call('POST', '/v1/scrape/batch', request);
  }

  sequence(request: T.SequenceRequest): Promise<T.SequenceResponse> {
    return this.#call('POST', '/v1/scrape/sequence', request);
  }

  startScrape(request: T.ScrapeRequest & J.AsyncOptions): Promise<J.JobCreated> {
    return this.#call('POST', '/v1/scrape/async/single', request);
  }

  startBatch(request: T.BatchRequest & J.AsyncOptions): Promise<J.JobCreated> {
    return this.#call('POST', '/v1/scrape/async/batch', request);
  }

  startSequence(request: T.SequenceRequest & J.AsyncOptions): Promise<J.JobCreated> {
    return this.#call('POST', '/v1/scrape/async/sequence', request);
  }

  startSequenceBatch(
    request: {
      sequences: T.SequenceRequest[];
      type?: T.OutputFormat;
      proxy?: T.Proxy;
    } & J.AsyncOptions,
  ): Promise<J.JobCreated> {
    return this.#call('POST', '/v1/scrape/async/sequence/batch', request);
  }

  startSearchBatch(request: T.SearchRequest & J.AsyncOptions): Promise<J.JobCreated> {
    return this.#call('POST', '/v1/scrape/async/search/batch', request);
  }

  /** One object, valid against `schema`, from all the pages; poll with waitForJob<ExtractResult>. */
  startExtract(request: T.ExtractRequest & J.AsyncOptions): Promise<J.JobCreated> {
    return this.#call('POST', '/v1/extract', request);
  }

  job<Item = unknown>(
    id: string,
    page: { offset?: number; limit?: number } = {},
  ): Promise<J.Job<Item>> {
    const q = new URLSearchParams();
    if (page.offset !== undefined) q.set('offset', String(page.offset));
    if (page.limit !== undefined) q.set('limit', String(page.limit));
    return this.#call(
      'GET',
      `/v1/scrape/async/job/${encodeURIComponent(id)}${q.size ? `?${q}` : ''}`,
    );
  }

  jobs(filter: { page?: number; limit?: number; type?: J.JobType } = {}): Promise<J.JobList> {
    const q = new URLSearchParams(
      Object.entries(filter)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
    return this.#call('GET', `/v1/scrape/async/jobs${q.size ? `?${q}` : ''}`);
  }

  /** Your own charges by UTC day and operation; `from`/`to` are YYYY-MM-DD, inclusive (default: the last 30 days). */
  usage(span: { from?: string; to?: string } = {}): Promise<J.Usage> {
    const q = new URLSearchParams(
      Object.entries(span).filter(([, v]) => v !== undefined) as Array<[string, string]>,
    );
    return this.#call('GET', `/v1/usage${q.size ? `?${q}` : ''}`);
  }

  /** Deletes the caller's cached results of one URL, or of every URL starting with `prefix`. */
  deleteCache(match: { url: string } | { prefix: string }): Promise<T.CacheDeleted> {
    const q = new URLSearchParams(match as Record<string, string>);
    return this.#call('DELETE', `/v1/cache?${q}`);
  }

  cancelJob(id: string): Promise<J.JobCancelled> {
    return this.#call('DELETE', `/v1/scrape/async/job/${encodeURIComponent(id)}`);
  }

  /**
   * Polls a job until it is completed, failed or cancelled, then returns it with every item
   * (following `next` through all pages).
   */
  async waitForJob<Item = unknown>(
    id: string,
    opts: { intervalMs?: number; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<J.Job<Item>> {
    const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
    let interval = opts.intervalMs ?? 500;
    for (;;) {
      opts.signal?.throwIfAborted();
      const first = await this.job<Item>(id, { limit: 100 });
      if (TERMINAL.has(first.status)) {
        const data = [...first.data];
        for (let next = first.next; next; ) {
          const nextUrl = new URL(next, this.#base);
          const page = await this.#call<J.Job<Item>>('GET', nextUrl.pathname + nextUrl.search);
          data.push(...page.data);
          next = page.next;
        }
        return { ...first, data, next: undefined };
      }
      if (Date.now() + interval > deadline)
        throw new WebdataError(408, `job ${id} still ${first.status} after the wait`);
      await new Promise((r) => setTimeout(r, interval));
      interval = Math.min(interval * 1.5, 5_000);
    }
  }

  map(request: T.MapRequest): Promise<T.MapResponse> {
    return this.#call('POST', '/v1/map', request);
  }

  pdfFromHtml(html: string, options: T.PdfOptions = {}): Promise<T.PdfResponse> {
    return this.#call('POST', '/v1/pdf/html', { html, ...options });
  }

  pdfFromUrl(url: string, options: T.PdfOptions = {}): Promise<T.PdfResponse> {
    return this.#call('POST', '/v1/pdf/url', { url, ...options });
  }

  screenshot(request: T.ScreenshotRequest): Promise<T.ScreenshotResponse> {
    return this.#call('POST', '/v1/screenshot', request);
  }

  createSession(request: S.SessionRequest = {}): Promise<S.SessionCreated> {
    return this.#call('POST', '/v1/browser-sandbox/session', request);
  }

  session(id: string): Promise<S.SessionDetails> {
    return this.#call('GET', `/v1/browser-sandbox/session/${encodeURIComponent(id)}`);
  }

  closeSession(id: string): Promise<S.SessionDetails> {
    return this.#call('DELETE', `/v1/browser-sandbox/session/${encodeURIComponent(id)}`);
  }

  resumeSession(id: string): Promise<S.SessionCreated> {
    return this.#call('POST', `/v1/browser-sandbox/session/${encodeURIComponent(id)}/resume`);
  }

  /** A recorded session's rrweb events, with a replay token and the replay page's URL. */
  sessionRecording(id: string): Promise<S.SessionRecording> {
    return this.#call('GET', `/v1/browser-sandbox/session/${encodeURIComponent(id)}/recording`);
  }
}
