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
  runnable: RunnableBrowser;
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
  /** Folder of this instance's profiles; its path also marks the processes for reaping. */
  root: string;
  proxyUrl: string;
  upstreamProxyUrl?: string;
}

/** The spares of one browser, and those still launching. */
interface Shelf {
  runnable: RunnableBrowser;
  spares: RunningBrowser[];
  inflight: Set<Promise<unknown>>;
}

/**
 * Starts session browsers, keeping `warmSpares` headless browsers of the default size launched
 * per browser so that a create for the common case takes one from the shelf instead of waiting for
 * a launch (~300 ms for Chromium, ~2.5 s for Firefox). A browser's spares are first launched with
 * its first session, not at start-up: a service nobody asks for a session (or a Firefox one) runs
 * no browser for them, and only that first create waits for a launch.
 */
export class SessionLauncher {
  readonly #o: LauncherOptions;
  readonly #shelves = new Map<string, Shelf>();
  #stopped = false;
  #log: Pick<FastifyBaseLogger, 'error'> = { error: () => undefined };

  constructor(o: LauncherOptions) {
    this.#o = o;
  }

  get proxyAvailable(): boolean {
    return this.#o.upstreamProxyUrl !== undefined;
  }

  get spareCount(): number {
    let count = 0;
    for (const shelf of this.#shelves.values()) count += shelf.spares.length;
    return count;
  }

  start(log: Pick<FastifyBaseLogger, 'error'>): void {
    this.#log = log;
  }

  async launch(req: LaunchRequest): Promise<RunningBrowser> {
    let shelf = this.#shelves.get(req.runnable.name);
    if (!shelf) {
      shelf = { runnable: req.runnable, spares: [], inflight: new Set() };
      this.#shelves.set(req.runnable.name, shelf);
    }
    // Spares are launched for the default request (`proxy` is true when an upstream exists).
    if (
      !req.profileFrom &&
      req.headless &&
      req.width === DEFAULT_WIDTH &&
      req.height === DEFAULT_HEIGHT &&
      req.proxy === this.proxyAvailable
    ) {
      const spare = shelf.spares.shift();
      this.fillSpares();
      if (spare && !spare.control.closed) return spare;
      await spare?.dispose();
    }
    this.fillSpares();
    return this.#launchFresh(req);
  }

  fillSpares(): void {
    for (const shelf of this.#shelves.values()) this.#fill(shelf);
  }

  #fill(shelf: Shelf): void {
    while (
      !this.#stopped &&
      shelf.spares.length + shelf.inflight.size < this.#o.config.warmSpares
    ) {
      const launch = this.#launchFresh({
        runnable: shelf.runnable,
        headless: true,
        width: DEFAULT_WIDTH,
        height: DEFAULT_HEIGHT,
        proxy: this.proxyAvailable,
      })
        .then(async (spare) => {
          if (this.#stopped) return spare.dispose();
          spare.control.once('close', () => {
            const at = shelf.spares.indexOf(spare);
            if (at >= 0) {
              shelf.spares.splice(at, 1);
              void spare.dispose();
            }
          });
          shelf.spares.push(spare);
        })
        .catch(() => undefined)
        .finally(() => shelf.inflight.delete(launch));
      shelf.inflight.add(launch);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    // A spare still launching disposes of itself once up; waiting for it leaves no browser behind.
    await Promise.allSettled(
      [...this.#shelves.values()].flatMap((shelf) => [
        ...shelf.spares.splice(0).map((b) => b.dispose()),
        ...shelf.inflight,
      ]),
    );
  }

  async #launchFresh(req: LaunchRequest): Promise<RunningBrowser> {
    const launch = req.runnable.family === 'firefox' ? launchFirefox : launchChromium;
    try {
      return await launch({
        executable: req.runnable.executable(req.headless),
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
