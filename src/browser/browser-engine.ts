import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import {
  DEFAULT_LOCALE,
  type EgressLimits,
  type EgressProxy,
  type NetworkPolicy,
  type ProxyRoute,
  presentedLocale,
  startEgressProxy,
} from '../acquire/index.ts';
import type { BrowserConfig, ChromiumPaths, FirefoxPaths } from '../config.ts';
import type { BROWSER_RUNGS } from '../contract/index.ts';
import type { ProxyTable } from '../settings/index.ts';
import { BrowserPool, type BrowserPoolStats } from './browser-pool.ts';
import { PageCrashedError } from './errors.ts';
import { desktopChrome, presentFingerprint } from './fingerprint.ts';
import { FIREFOX_ENV, firefoxPrefs } from './firefox-prefs.ts';
import { IGNORED_DEFAULT_ARGS, poolFlags } from './flags.ts';
import type { Guard } from './navigate.ts';
import { mainPidWithArgument } from './processes.ts';
import { headlessInitScript, stealthInitScript } from './stealth.ts';
import { executableVersion } from './version.ts';
import { startXvfb, type Xvfb } from './xvfb.ts';

/**
 * playwright-core (and patchright-core for the stealth pool, below), loaded with the first browser
 * instead of at start: about a quarter of the modules a server loads before it answers, and only
 * browser pages need it.
 */
const playwright = () => import('playwright-core');

/** The browser methods of the API, in escalation order. */
export type BrowserMethod = (typeof BROWSER_RUNGS)[number];

export interface BrowserEngineOptions extends BrowserConfig {
  chromium: ChromiumPaths;
  firefox: FirefoxPaths;
  policy: NetworkPolicy;
  /**
   * An egress proxy to share (the caller closes it). Without one the engine starts its own, with
   * `upstreams` and `egressLimits`, when its first page needs it: a process that never opens a
   * page (a job worker given no browser items) listens on no port for it.
   */
  proxy?: EgressProxy;
  upstreams?: ProxyTable;
  egressLimits?: EgressLimits;
  /** Deadline of one navigation. */
  navigationTimeoutMs: number;
  onEvent?(event: string, detail: Record<string, unknown>): void;
}

export interface PageRun {
  /** Whose page this is (the user id): pages are shared between keys in turn. */
  key: string;
  signal?: AbortSignal;
  viewport?: { width: number; height: number };
  /** The page's requests leave through this upstream proxy (a geo proxy) after the egress proxy's checks. */
  proxy?: ProxyRoute;
}

/** What the page callback gets besides the page: the SSRF guard and the navigation deadline. */
export interface PageEnv {
  method: BrowserMethod;
  guard: Guard;
  navigationTimeoutMs: number;
  /** The request's signal, for the waits and loops run on the page. */
  signal?: AbortSignal;
}

/**
 * `work` on `page`, or a PageCrashedError as soon as the page's renderer dies: Playwright's calls
 * on a crashed page are not answered, so without this every wait ran out the whole page budget.
 */
function failOnCrash<T>(page: Page, work: Promise<T>): Promise<T> {
  let onCrash = () => {};
  const crashed = new Promise<never>((_, reject) => {
    onCrash = () => reject(new PageCrashedError());
  });
  page.once('crash', onCrash);
  return Promise.race([work, crashed]).finally(() => page.off('crash', onCrash));
}

/**
 * The browser methods: a warm pool of Debian's headless shell for `browser`; headful Chromium
 * on a private Xvfb display, automation markers removed, for `browser-stealth`; and headless
 * Firefox for `browser-firefox`, another engine for sites that turn Chromium away. The last two
 * start on first use, since most pages never need them.
 */
export class BrowserEngine {
  readonly #opts: BrowserEngineOptions;
  /** The shared proxy, or our own once started. */
  #proxy: Promise<EgressProxy> | undefined;
  #startedProxy: EgressProxy | undefined;
  readonly #ownsProxy: boolean;
  readonly #headless: BrowserPool;
  readonly #stealth: BrowserPool;
  readonly #firefox: BrowserPool;
  #xvfb: Promise<Xvfb> | undefined;

  private constructor(opts: BrowserEngineOptions) {
    this.#opts = opts;
    this.#ownsProxy = !opts.proxy;
    if (opts.proxy) {
      this.#proxy = Promise.resolve(opts.proxy);
      this.#startedProxy = opts.proxy;
    }
    this.#headless = this.#newPool(
      'browser',
      opts.poolSize,
      async (marker) =>
        (await playwright()).chromium.launch({
          executablePath: opts.chromium.headless,
          args: [...poolFlags((await this.#egress()).url, 'browser'), marker],
          ignoreDefaultArgs: IGNORED_DEFAULT_ARGS,
        }),
      headlessInitScript(),
    );
    this.#stealth = this.#newPool(
      'browser-stealth',
      opts.stealthPoolSize,
      (marker) => this.#launchStealth(marker),
      stealthInitScript(),
    );
    this.#firefox = this.#newPool('browser-firefox', opts.firefoxPoolSize, async (marker) =>
      (await playwright()).firefox.launch({
        // Playwright's WebDriver BiDi driver, which runs a stock Firefox (its own `firefox` needs
        // Playwright's patched build); see patches/README.md.
        channel: 'moz-firefox',
        executablePath: opts.firefox.firefox,
        headless: true,
        args: [marker],
        env: { ...process.env, ...FIREFOX_ENV },
        firefoxUserPrefs: firefoxPrefs((await this.#egress()).url),
      }),
    );
  }

  /** The pool of one rung: its browsers started by `launch`, each fresh context given `initScript`. */
  #newPool(
    name: BrowserMethod,
    size: number,
    launch: (marker: string) => Promise<Browser>,
    initScript?: string,
  ): BrowserPool {
    const opts = this.#opts;
    return new BrowserPool({
      name,
      size,
      maxPages: opts.maxPages,
      pagesPerKey: opts.pagesPerKey,
      queueWaitMs: opts.queueWaitMs,
      recycleAfterPages: opts.recycleAfterPages,
      onEvent: opts.onEvent,
      launch,
      prepareContext:
        initScript === undefined ? undefined : (context) => context.addInitScript(initScript),
    });
  }

  static async start(opts: BrowserEngineOptions): Promise<BrowserEngine> {
    const engine = new BrowserEngine(opts);
    if (opts.warm) await engine.#headless.warm();
    return engine;
  }

  /** The egress proxy every page goes through; throws while an engine's own one has not started. */
  get proxy(): EgressProxy {
    if (!this.#startedProxy)
      throw new Error(
        'the browser engine has not started its egress proxy: no page has been opened',
      );
    return this.#startedProxy;
  }

  #egress(): Promise<EgressProxy> {
    this.#proxy ??= startEgressProxy(
      this.#opts.policy,
      this.#opts.upstreams,
      this.#opts.egressLimits,
    ).then(
      (proxy) => (this.#startedProxy = proxy),
      (err: unknown) => {
        this.#proxy = undefined;
        throw err;
      },
    );
    return this.#proxy;
  }

  async #launchStealth(marker: string): Promise<Browser> {
    this.#xvfb ??= startXvfb();
    const xvfb = await this.#xvfb.catch((err: unknown) => {
      this.#xvfb = undefined;
      throw err;
    });
    const proxy = await this.#egress();
    // patchright-core is playwright-core without its tells: no `Runtime.enable` (seen by pages
    // through the console's reads of Error.stack and Error.name), scripts run in an isolated
    // world, no `__playwright__binding__`. Its API is playwright-core's, of its own version.
    const browser = await (await import('patchright-core')).chromium.launch({
      executablePath: this.#opts.chromium.visible,
      headless: false,
      env: { ...process.env, DISPLAY: xvfb.display },
      args: [
        ...poolFlags(
          proxy.url,
          'browser-stealth',
          desktopChrome(await executableVersion(this.#opts.chromium.visible)).userAgent,
        ),
        marker,
      ],
      ignoreDefaultArgs: IGNORED_DEFAULT_ARGS,
    });
    return browser as unknown as Browser;
  }

  /**
   * Runs `fn` on a fresh page of `method`'s pool. Waits for a free page at most the configured
   * queue wait (BrowserBusyError beyond); a browser crash re-runs `fn` once on another browser.
   */
  async run<T>(
    method: BrowserMethod,
    fn: (page: Page, env: PageEnv) => Promise<T>,
    opts: PageRun,
  ): Promise<T> {
    const pool = this.#pool(method);
    // Each context gets a lane of its own through the egress proxy, direct or through the
    // route's upstream proxy: every destination is checked there, what it refuses is told to this
    // page only, and what the page may load is capped.
    const lane = await (await this.#egress()).openLane(opts.proxy?.name);
    const locale = await presentedLocale(opts.proxy?.country);
    // Playwright sets these in the page, its frames and each worker before the worker runs.
    const geography: BrowserContextOptions =
      locale === DEFAULT_LOCALE
        ? {}
        : { locale: locale.locale, ...(locale.timeZone ? { timezoneId: locale.timeZone } : {}) };
    const viewport = opts.viewport ?? { width: 1280, height: 800 };
    const context: BrowserContextOptions =
      method !== 'browser-stealth'
        ? {
            viewport,
            // The screen of a desktop the window fits in, not one the size of the viewport.
            screen: {
              width: Math.max(1920, viewport.width),
              height: Math.max(1080, viewport.height),
            },
            proxy: { server: lane.url },
            ...geography,
          }
        : { viewport: opts.viewport ?? null, proxy: { server: lane.url }, ...geography };
    const env: PageEnv = {
      method,
      guard: { policy: this.#opts.policy, proxy: lane },
      navigationTimeoutMs: this.#opts.navigationTimeoutMs,
      signal: opts.signal,
    };
    return pool.run(
      async (page) => {
        page.setDefaultTimeout(this.#opts.navigationTimeoutMs);
        // Before the page loads anything: the browser it presents, speaking the route's country.
        // Firefox presents itself as it is: its user agent and language are its own and the context's.
        if (method !== 'browser-firefox')
          await presentFingerprint(
            page,
            desktopChrome(page.context().browser()?.version() ?? ''),
            locale,
          );
        return failOnCrash(page, fn(page, env));
      },
      // The lane goes with its context, after the answer is handed back.
      { key: opts.key, signal: opts.signal, context, cleanup: () => lane.close() },
    );
  }

  #pool(method: BrowserMethod): BrowserPool {
    if (method === 'browser') return this.#headless;
    return method === 'browser-stealth' ? this.#stealth : this.#firefox;
  }

  stats(): Record<BrowserMethod, BrowserPoolStats> {
    return {
      browser: this.#headless.stats(),
      'browser-stealth': this.#stealth.stats(),
      'browser-firefox': this.#firefox.stats(),
    };
  }

  /** Main process ids of the live browsers of `method` (benchmarks, crash tests). */
  pids(method: BrowserMethod): Array<{ pid: number; active: number }> {
    return this.#pool(method)
      .markers()
      .flatMap(({ marker, active }) => {
        const pid = mainPidWithArgument(marker);
        return pid ? [{ pid, active }] : [];
      });
  }

  async close(): Promise<void> {
    await Promise.allSettled([
      this.#headless.close(),
      this.#stealth.close(),
      this.#firefox.close(),
    ]);
    const xvfb = await this.#xvfb?.catch(() => undefined);
    await xvfb?.close();
    if (this.#ownsProxy) await (await this.#proxy?.catch(() => undefined))?.close();
  }
}
