import type { FastifyBaseLogger } from 'fastify';
import type { SessionConfig } from '../config.ts';
import type { RunnableBrowser } from './browsers.ts';
import { type ChromiumBrowser, launchChromium } from './chromium.ts';
import { type FirefoxBrowser, launchFirefox } from './firefox.ts';
import { RUNTIME_MARKER } from './reap.ts';
import { SessionError } from './types.ts';

export const DEFAULT_WIDTH = 1280;
export const DEFAULT_HEIGHT = 720;

/** A session's browser, of either family. */
export type RunningBrowser = ChromiumBrowser | FirefoxBrowser;

export interface LaunchRequest {
  engine: RunnableBrowser;
  headless: boolean;
  width: number;
  height: number;
  /** Through the operator's default upstream proxy rather than straight through the egress proxy. */
  proxy: boolean;
  /** A user-data folder to start from; such a browser is launched for the request, never a spare. */
  profileFrom?: string;
}

export interface LauncherOptions {
  config: SessionConfig;
  /** The engine spares are launched with: Chromium, which most sessions ask for. */
  spareEngine: RunnableBrowser;
  /** Folder of this instance's profiles; its path also marks the processes for reaping. */
  root: string;
  proxyUrl: string;
  upstreamProxyUrl?: string;
}

/**
 * Starts session browsers, keeping `warmSpares` headless browsers of the default size launched
 * so that a create for the common case takes one from the shelf instead of waiting ~300 ms.
 * Spares are first launched with the first session, not at start-up: a service nobody asks for
 * a session runs no browser for them, and only that first create waits for a launch.
 */
export class SessionLauncher {
  readonly #o: LauncherOptions;
  readonly #spares: RunningBrowser[] = [];
  readonly #inflight = new Set<Promise<unknown>>();
  #stopped = false;
  #log: Pick<FastifyBaseLogger, 'error'> = { error: () => undefined };

  constructor(o: LauncherOptions) {
    this.#o = o;
  }

  get proxyAvailable(): boolean {
    return this.#o.upstreamProxyUrl !== undefined;
  }

  get spareCount(): number {
    return this.#spares.length;
  }

  start(log: Pick<FastifyBaseLogger, 'error'>): void {
    this.#log = log;
  }

  async launch(req: LaunchRequest): Promise<RunningBrowser> {
    // Spares are launched for the default request (`proxy` is true when an upstream exists).
    if (
      req.engine.name === this.#o.spareEngine.name &&
      !req.profileFrom &&
      req.headless &&
      req.width === DEFAULT_WIDTH &&
      req.height === DEFAULT_HEIGHT &&
      req.proxy === this.proxyAvailable
    ) {
      const spare = this.#spares.shift();
      this.fillSpares();
      if (spare && !spare.control.closed) return spare;
      await spare?.dispose();
    }
    this.fillSpares();
    return this.#launchFresh(req);
  }

  fillSpares(): void {
    while (
      !this.#stopped &&
      this.#spares.length + this.#inflight.size < this.#o.config.warmSpares
    ) {
      const launch = this.#launchFresh({
        engine: this.#o.spareEngine,
        headless: true,
        width: DEFAULT_WIDTH,
        height: DEFAULT_HEIGHT,
        proxy: this.proxyAvailable,
      })
        .then(async (spare) => {
          if (this.#stopped) return spare.dispose();
          spare.control.once('close', () => {
            const at = this.#spares.indexOf(spare);
            if (at >= 0) {
              this.#spares.splice(at, 1);
              void spare.dispose();
            }
          });
          this.#spares.push(spare);
        })
        .catch(() => undefined)
        .finally(() => this.#inflight.delete(launch));
      this.#inflight.add(launch);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    // A spare still launching disposes of itself once up; waiting for it leaves no browser behind.
    await Promise.allSettled([
      ...this.#spares.splice(0).map((b) => b.dispose()),
      ...this.#inflight,
    ]);
  }

  async #launchFresh(req: LaunchRequest): Promise<RunningBrowser> {
    const launch = req.engine.family === 'firefox' ? launchFirefox : launchChromium;
    try {
      return await launch({
        executable: req.engine.executable(req.headless),
        headless: req.headless,
        width: req.width,
        height: req.height,
        proxyUrl:
          req.proxy && this.#o.upstreamProxyUrl ? this.#o.upstreamProxyUrl : this.#o.proxyUrl,
        root: this.#o.root,
        env: { [RUNTIME_MARKER]: this.#o.root },
        profileFrom: req.profileFrom,
      });
    } catch (err) {
      this.#log.error({ err }, 'session browser failed to start');
      throw new SessionError(
        'unavailable',
        'the session browser could not be started; try again later',
      );
    }
  }
}
