import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { FairLane } from '../fair/index.ts';
import { BrowserBusyError } from './errors.ts';
import { killWithArgument } from './processes.ts';

/**
 * How long a browser asked to close (or still starting when its pool closes) is given before its
 * processes are killed. Playwright waits for the browser to answer without a limit, so one that
 * no longer answers (stopped, hung on its display) held a process's stop until its supervisor's
 * SIGKILL, and with it the hand-back of a worker's job items.
 */
export const BROWSER_CLOSE_GRACE_MS = 5_000;

export interface BrowserPoolOptions {
  name: string;
  /** Browsers kept running. */
  size: number;
  /** Pages open at once across the pool. */
  maxPages: number;
  /** Pages one key (user) may hold at once. */
  pagesPerKey: number;
  queueWaitMs: number;
  recycleAfterPages: number;
  /** Starts one browser; `marker` is an extra command-line switch that names its process. */
  launch(marker: string): Promise<Browser>;
  /** Prepares each fresh context (init scripts, headers) before its page opens. */
  prepareContext?(context: BrowserContext): Promise<unknown>;
  onEvent?(event: string, detail: Record<string, unknown>): void;
}

export interface BrowserPoolRun {
  /** Whose page this is: pages are shared between keys in turn, each up to its cap. */
  key: string;
  signal?: AbortSignal;
  context?: BrowserContextOptions;
  /** Runs once the request's context is closed (or at once if it never got one). */
  cleanup?(): Promise<void>;
}

interface Entry {
  marker: string;
  ready: Promise<Browser>;
  active: number;
  served: number;
  retiring: boolean;
  dead: boolean;
}

export interface BrowserPoolStats {
  browsers: number;
  activePages: number;
  waiting: number;
  launches: number;
  crashes: number;
  crashRetries: number;
}

/**
 * `work`, or the signal's reason as soon as it aborts. The context is closed on abort, so page
 * calls fail on their own, but code that only sleeps or computes would keep the pool's place
 * until it got round to one; the place is handed back at once instead.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/**
 * A few browsers kept warm, one fresh context per request (cookies, storage and cache never cross
 * requests), a bounded number of pages at once. A browser is replaced after `recycleAfterPages`
 * pages, and at once when it dies; requests it was serving are run again, once, elsewhere.
 */
export class BrowserPool {
  readonly #opts: BrowserPoolOptions;
  readonly #pages: FairLane;
  readonly #entries: Entry[] = [];
  /** Teardowns and retiring browsers' closes, which close() waits for. */
  readonly #pending = new Set<Promise<void>>();
  #closed = false;
  #launches = 0;
  #crashes = 0;
  #crashRetries = 0;

  constructor(opts: BrowserPoolOptions) {
    this.#opts = opts;
    this.#pages = new FairLane({ capacity: opts.maxPages, perKey: opts.pagesPerKey });
  }

  stats(): BrowserPoolStats {
    return {
      browsers: this.#entries.length,
      activePages: this.#entries.reduce((n, e) => n + e.active, 0),
      waiting: this.#pages.waiting,
      launches: this.#launches,
      crashes: this.#crashes,
      crashRetries: this.#crashRetries,
    };
  }

  /** Markers of the live browsers (see processes.ts to find their processes). */
  markers(): Array<{ marker: string; active: number }> {
    return this.#entries
      .filter((e) => !e.dead)
      .map((e) => ({ marker: e.marker, active: e.active }));
  }

  /** Launches browsers until the pool is full. */
  async warm(): Promise<void> {
    const missing = this.#opts.size - this.#entries.length;
    await Promise.all(Array.from({ length: Math.max(0, missing) }, () => this.#launch().ready));
  }

  /**
   * Runs `fn` on a new page in a new context, closed afterwards whatever happens. The answer is
   * handed back before the context is closed, which the caller need not wait for; the page's
   * place is taken until it is.
   */
  async run<T>(fn: (page: Page) => Promise<T>, opts: BrowserPoolRun): Promise<T> {
    const teardowns: Array<Promise<void>> = [];
    try {
      if (this.#closed) throw new Error('the browser pool is shut down');
      const waitMs = this.#opts.queueWaitMs;
      const release = await this.#pages.acquire(opts.key, {
        signal: opts.signal,
        waitMs,
        busy: () => new BrowserBusyError(waitMs, Math.max(1, Math.ceil(waitMs / 1000))),
      });
      try {
        for (let attempt = 0; ; attempt++) {
          const entry = this.#pick();
          try {
            return await this.#runOn(entry, fn, opts, teardowns);
          } catch (err) {
            // Gone callers are not kept waiting on a browser still starting to learn if it died;
            // its 'disconnected' event tells the pool anyway.
            if (opts.signal?.aborted || this.#closed) throw err;
            // The error can reach us before the browser's 'disconnected' event does.
            if (
              await entry.ready.then(
                (b) => !b.isConnected(),
                () => false,
              )
            )
              this.#lost(entry);
            if (attempt === 0 && entry.dead) {
              this.#crashRetries++;
              this.#opts.onEvent?.('retry-after-crash', { pool: this.#opts.name });
              continue;
            }
            throw err;
          }
        }
      } finally {
        teardowns.push(Promise.all(teardowns).then(release));
      }
    } finally {
      this.#track(Promise.all(teardowns).then(() => opts.cleanup?.()));
    }
  }

  async #runOn<T>(
    entry: Entry,
    fn: (page: Page) => Promise<T>,
    opts: BrowserPoolRun,
    teardowns: Array<Promise<void>>,
  ): Promise<T> {
    entry.active++;
    entry.served++;
    if (entry.served >= this.#opts.recycleAfterPages) entry.retiring = true;
    let opened: Promise<BrowserContext> | undefined;
    const onAbort = () => void opened?.then((context) => context.close()).catch(() => {});
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // A client that leaves gives its place back at once, at every step: a browser still
      // starting, or one slow (or no longer able) to answer, would otherwise hold it, and a
      // stopping worker's items with it. A context that arrives after that is closed below.
      const browser = await untilAborted(entry.ready, opts.signal);
      opened = browser.newContext(opts.context);
      const context = await untilAborted(opened, opts.signal);
      await untilAborted(Promise.resolve(this.#opts.prepareContext?.(context)), opts.signal);
      const page = await untilAborted(context.newPage(), opts.signal);
      return await untilAborted(fn(page), opts.signal);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      teardowns.push(this.#teardown(entry, opened));
    }
  }

  async #teardown(entry: Entry, opened: Promise<BrowserContext> | undefined): Promise<void> {
    await opened?.then((context) => context.close()).catch(() => {});
    entry.active--;
    if (entry.retiring && entry.active === 0) this.#retire(entry);
  }

  /** Keeps `work` (a teardown, a retiring browser's close) for close() to wait on. */
  #track(work: Promise<unknown>): void {
    const done = work.then(
      () => undefined,
      () => undefined,
    );
    this.#pending.add(done);
    void done.finally(() => this.#pending.delete(done));
  }

  /** An idle live browser, else a new one while the pool has room, else the least busy. */
  #pick(): Entry {
    const live = this.#entries.filter((e) => !e.dead && !e.retiring);
    const idle = live.find((e) => e.active === 0);
    if (idle) return idle;
    if (this.#entries.length < this.#opts.size || live.length === 0) return this.#launch();
    return live.reduce((a, b) => (b.active < a.active ? b : a));
  }

  #launch(): Entry {
    const marker = `--webdata-browser=${this.#opts.name}-${randomUUID()}`;
    this.#launches++;
    const entry: Entry = {
      marker,
      ready: this.#opts.launch(marker),
      active: 0,
      served: 0,
      retiring: false,
      dead: false,
    };
    this.#entries.push(entry);
    entry.ready.then(
      (browser) => {
        browser.on('disconnected', () => this.#lost(entry));
        if (this.#closed) void browser.close().catch(() => {});
      },
      () => this.#lost(entry),
    );
    return entry;
  }

  /** The browser went away (or never came up): a crash unless we were closing it. */
  #lost(entry: Entry): void {
    if (entry.dead) return;
    entry.dead = true;
    this.#remove(entry);
    if (entry.retiring || this.#closed) return;
    this.#crashes++;
    this.#opts.onEvent?.('browser-crashed', { pool: this.#opts.name });
    // Reap what is left of it (Debian's wrapper script, orphaned children).
    void closeBrowser(entry);
  }

  #remove(entry: Entry): void {
    const i = this.#entries.indexOf(entry);
    if (i >= 0) this.#entries.splice(i, 1);
  }

  #retire(entry: Entry): void {
    entry.dead = true;
    this.#remove(entry);
    this.#track(closeBrowser(entry));
  }

  async close(): Promise<void> {
    this.#closed = true;
    const entries = this.#entries.splice(0);
    for (const e of entries) e.retiring = true;
    // Browsers first: once they are closed (or killed), the contexts pending teardown settle,
    // all but one: Playwright never answers a context's close that crossed its browser's close,
    // so those are waited for only a grace (the egress proxy's close ends their lanes).
    await Promise.allSettled(entries.map(closeBrowser));
    await settlesWithin(Promise.allSettled([...this.#pending]), BROWSER_CLOSE_GRACE_MS);
  }
}

/** Closes the entry's browser once it has started; past the grace, kills its processes instead. */
async function closeBrowser(entry: Entry): Promise<void> {
  const closed = entry.ready.then(
    (browser) => browser.close(),
    () => undefined,
  );
  if (await settlesWithin(closed, BROWSER_CLOSE_GRACE_MS)) return;
  killWithArgument(entry.marker);
  // Playwright learns of the kill from the process's exit; not waited on past a second grace.
  await settlesWithin(closed, BROWSER_CLOSE_GRACE_MS);
}

/** Whether `work` settles (either way) within `ms`. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = work.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
