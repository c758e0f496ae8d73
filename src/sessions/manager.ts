import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { ChromiumPaths, FirefoxPaths, SessionConfig } from '../config.ts';
import type { LedgerStore, ProfileStore, SessionRow, SessionStore } from '../store/index.ts';
import { closeOrphans } from './billing.ts';
import { restoreBrowserState } from './browser-state.ts';
import { type RunnableBrowser, runnableBrowser, runnableBrowsers } from './browsers.ts';
import { refuseUnfit } from './create-checks.ts';
import { endSession } from './end-session.ts';
import { SessionFileAccess } from './file-access.ts';
import { SessionFiles } from './files.ts';
import { LaunchSlots } from './launch-slots.ts';
import { type LaunchRequest, type RunningBrowser, SessionLauncher } from './launcher.ts';
import {
  liveProcessIds,
  newLiveSession,
  newSessionRow,
  openLiveView,
  watchBrowser,
} from './live-session.ts';
import { SessionOwnership } from './ownership.ts';
import { Profiles } from './profiles.ts';
import { claimRuntime, killMarked, RUNTIME_MARKER, RUNTIME_PREFIX, reapAbandoned } from './reap.ts';
import { SessionRecordings } from './session-recordings.ts';
import type { StorageState } from './state.ts';
import { tokenMatches } from './tokens.ts';
import {
  type CloseReason,
  type CreateOptions,
  type LiveSession,
  type PublicSession,
  type SessionCreated,
  type SessionDetails,
  SessionError,
} from './types.ts';
import { createdView, liveDetails, publicView, rowDetails } from './views.ts';

export interface SessionManagerOptions {
  config: SessionConfig;
  chromium: ChromiumPaths;
  firefox: FirefoxPaths;
  publicUrl: string;
  dataDir: string;
  store: SessionStore;
  ledger: LedgerStore;
  profiles: ProfileStore;
  /** URL of the SSRF egress proxy every session browser is pointed at. */
  proxyUrl: string;
  /**
   * The egress proxy's listener that goes on through the operator's default (`*`) upstream
   * proxy, for sessions with `proxy: true`; absent when no default upstream is configured.
   */
  upstreamProxyUrl?: string;
}

const PERSIST_ACTIVITY_EVERY_MS = 30_000;

/**
 * Runs this instance's remote browser sessions: one browser process per session, idle time-out
 * and maximum lifetime, per-second billing, storage and files saved at close and restored at
 * resume, named profiles held one session at a time, and a warm spare browser so a create does
 * not wait for a launch.
 */
export class SessionManager {
  readonly #o: SessionManagerOptions;
  readonly #root: string;
  readonly #live = new Map<string, LiveSession>();
  readonly #launching = new LaunchSlots();
  readonly #launcher: SessionLauncher;
  /** The browsers this build can run (browsers.ts). */
  readonly #runnables: RunnableBrowser[];
  readonly #files: SessionFiles;
  readonly #ownership: SessionOwnership;
  /** Named browser profiles of each key (create, list, get, delete), used by sessions here. */
  readonly profiles: Profiles;
  /** The files API of each key's sessions (list, open, delete, write). */
  readonly files: SessionFileAccess;
  /** Recording and playback of each key's recorded sessions. */
  readonly recordings: SessionRecordings;
  #sweep: NodeJS.Timeout | undefined;
  #started = false;
  #stopping = false;
  #log: Pick<FastifyBaseLogger, 'warn' | 'error'> = {
    warn: () => undefined,
    error: () => undefined,
  };

  constructor(o: SessionManagerOptions) {
    this.#o = o;
    // One folder per instance (data folder and public URL), so a restart may wipe everything in
    // it. It lives under the system temp folder with a short name because Chromium and x11vnc put
    // unix sockets inside it, and socket paths may not exceed 107 bytes.
    const instance = createHash('sha256')
      .update(`${o.dataDir}\n${o.publicUrl}`)
      .digest('hex')
      .slice(0, 12);
    this.#root = join(tmpdir(), `${RUNTIME_PREFIX}${instance}`);
    this.#runnables = runnableBrowsers(o.chromium, o.firefox);
    this.#files = new SessionFiles(o.dataDir, o.config);
    this.#ownership = new SessionOwnership(o.store, this.#live);
    this.profiles = new Profiles(o.dataDir, o.profiles);
    this.files = new SessionFileAccess(this.#files, this.#ownership);
    this.recordings = new SessionRecordings(o.dataDir, o.config, o.publicUrl, this.#ownership);
    this.#launcher = new SessionLauncher({
      config: o.config,
      root: this.#root,
      proxyUrl: o.proxyUrl,
      upstreamProxyUrl: o.upstreamProxyUrl,
    });
  }

  /** Folder holding every browser profile of this instance; its path marks the processes too. */
  get runtimeRoot(): string {
    return this.#root;
  }

  /** Ends what a previous life of this instance left behind, then readies the spares and timers. */
  async start(log: Pick<FastifyBaseLogger, 'warn' | 'error'>): Promise<void> {
    this.#started = true;
    this.#log = log;
    await killMarked(this.#root);
    await rm(this.#root, { recursive: true, force: true });
    await mkdir(this.#root, { recursive: true });
    await claimRuntime(this.#root);
    const reaped = await reapAbandoned(tmpdir(), this.#root);
    if (reaped.length > 0)
      this.#log.warn({ reaped }, 'removed session folders of instances that are gone');
    await closeOrphans(this.#o.store, this.#o.ledger, this.#o.publicUrl);
    await this.profiles.releaseInactive();
    await this.recordings.start(() => new Set(this.#live.keys()));
    const every = Math.min(5_000, Math.max(100, Math.floor(this.#o.config.idleTimeoutMs / 4)));
    this.#sweep = setInterval(() => void this.#sweepOnce(), every);
    this.#sweep.unref();
    this.#launcher.start(log);
  }

  async shutdown(): Promise<void> {
    // A process that never started sessions (a `webdata worker`) shares the runtime folder with
    // the `serve` beside it; reaping by that folder would kill the server's session browsers.
    if (!this.#started) return;
    this.#stopping = true;
    clearInterval(this.#sweep);
    this.recordings.stop();
    // A shutdown ends sessions the service did not choose to end: closeReason `error`, with the
    // storage saved so they can be resumed once the service is back.
    await Promise.allSettled([...this.#live.values()].map((live) => this.#close(live, 'error')));
    await this.#launcher.stop();
    await killMarked(this.#root);
    await rm(this.#root, { recursive: true, force: true });
  }

  async create(userId: string, opts: CreateOptions): Promise<SessionCreated> {
    const runnable = this.#runnable(opts.browser ?? this.#o.config.defaultBrowser);
    refuseUnfit(opts, runnable, this.proxyAvailable);
    const id = randomUUID();
    const profile = opts.profile;
    const profileFrom = profile && (await this.profiles.take(userId, profile.name, id));
    const created = this.#begin(userId, { ...opts, runnable, profileFrom }, async (running) => {
      const now = Date.now();
      const live = newLiveSession({
        id,
        userId,
        ...opts,
        profile,
        browser: runnable.name,
        createdAt: now,
        startedAt: now,
        billedMicros: 0,
        running,
      });
      await watchBrowser(live, () => this.#died(live));
      if (opts.record)
        await this.recordings.record(live, opts.record.video ? this.#helperEnv() : undefined);
      await this.#o.store.insert(newSessionRow(live, this.#o.publicUrl));
      return live;
    });
    if (!profile) return created;
    return created.catch(async (err) => {
      await this.profiles.giveBack(userId, profile.name, id);
      throw err;
    });
  }

  async resume(userId: string, id: string): Promise<SessionCreated> {
    // A close still saving its state finishes first, so the resume starts from that state.
    await this.#live.get(id)?.closing;
    const row = await this.#owned(userId, id);
    if (row.status === 'active')
      throw new SessionError('conflict', 'session is active; close it before resuming');
    if (!row.storage_state)
      throw new SessionError('conflict', 'session has no saved state to resume');
    const runnable = this.#runnable(row.browser);
    const headless = row.headless === 1;
    if (row.proxy === 1 && !this.proxyAvailable)
      throw new SessionError(
        'unavailable',
        'the session ran through an upstream proxy and none is configured now',
      );
    return this.#begin(
      userId,
      { runnable, headless, width: row.width, height: row.height, proxy: row.proxy === 1 },
      async (running) => {
        const state = JSON.parse(row.storage_state!) as StorageState;
        const now = Date.now();
        const live = newLiveSession({
          id,
          userId,
          browser: runnable.name,
          headless,
          proxy: row.proxy === 1,
          width: row.width,
          height: row.height,
          profile: undefined,
          createdAt: row.created_at,
          startedAt: now,
          billedMicros: row.billed_micros,
          running,
        });
        live.lastUrl = row.last_url;
        live.hasStorageState = true;
        await this.#files.restore(userId, id, running.files);
        // Origins restored now are saved again at the next close even if not visited meanwhile.
        for (const o of state.origins) live.origins.add(o.origin);
        await restoreBrowserState(running, state, live.ownTargets);
        await this.recordings.recordIfRecorded(live);
        await watchBrowser(live, () => this.#died(live));
        const reopened = await this.#o.store.reopenIfClosed(id, {
          token_hash: live.tokenHash.toString('hex'),
          instance_url: this.#o.publicUrl,
          close_reason: null,
          closed_at: null,
          started_at: now,
          last_activity_at: now,
        });
        if (!reopened) throw new SessionError('conflict', 'session was resumed by another request');
        return live;
      },
    );
  }

  /** Takes a slot, launches a browser and lets `open` make it a session; any failure disposes of the browser. */
  async #begin(
    userId: string,
    req: LaunchRequest,
    open: (running: RunningBrowser) => Promise<LiveSession>,
  ): Promise<SessionCreated> {
    if (this.#stopping) throw new SessionError('unavailable', 'server is shutting down');
    const release = this.#launching.reserve(userId, this.#live.values(), this.#o.config);
    let running: RunningBrowser | undefined;
    try {
      running = await this.#launcher.launch(req);
      const live = await open(running);
      this.#live.set(live.id, live);
      return createdView(this.#o.publicUrl, live);
    } catch (err) {
      await running?.dispose();
      throw err;
    } finally {
      release();
    }
  }

  async get(userId: string, id: string): Promise<SessionDetails> {
    const live = this.#live.get(id);
    if (live && live.userId === userId) return liveDetails(this.#o.publicUrl, live);
    return rowDetails(this.#o.publicUrl, await this.#owned(userId, id));
  }

  /** Closes a session (saving its storage) and returns its final details; closing a closed one changes nothing. */
  async close(userId: string, id: string): Promise<SessionDetails> {
    const live = this.#live.get(id);
    if (live && live.userId === userId) {
      await this.#close(live, 'manual');
      return this.get(userId, id);
    }
    const row = await this.#owned(userId, id);
    if (row.status === 'active') {
      throw new SessionError(
        'conflict',
        `session runs on another instance (${row.instance_url}); send the request there`,
      );
    }
    return rowDetails(this.#o.publicUrl, row);
  }

  listPublic(): { sessions: PublicSession[]; count: number; capacity: number; warmSpares: number } {
    const sessions = [...this.#live.values()].filter((l) => !l.closing).map(publicView);
    return {
      sessions,
      count: sessions.length,
      capacity: this.#o.config.maxSessions,
      warmSpares: this.#launcher.spareCount,
    };
  }

  /**
   * Checks a WebSocket's session id and token before the upgrade: an unknown or closed session
   * is `not-found`, a wrong or missing token `unauthorized`.
   */
  authorize(
    id: string | undefined,
    token: string | undefined,
  ): LiveSession | 'not-found' | 'unauthorized' {
    const live = id ? this.#live.get(id) : undefined;
    if (!live || live.closing) return 'not-found';
    if (!token || !tokenMatches(token, live.tokenHash)) return 'unauthorized';
    return live;
  }

  /** A client asked the browser to close: a manual close, state saved. */
  closeFromClient(live: LiveSession): void {
    void this.#close(live, 'manual');
  }

  /** CDP or VNC traffic: what keeps a session from timing out. */
  touch(live: LiveSession): void {
    live.lastActivityAt = Date.now();
  }

  /** The live view needs the session's display; returns the x11vnc socket once it listens. */
  openVnc(live: LiveSession): Promise<string> {
    return openLiveView(live, this.#helperEnv());
  }

  /** The environment of a session's helper processes (x11vnc, ffmpeg): marked for the reaper. */
  #helperEnv(): NodeJS.ProcessEnv {
    return { ...process.env, [RUNTIME_MARKER]: this.#root };
  }

  closeVnc(live: LiveSession): void {
    live.vnc?.release();
  }

  /** Process ids of a live session's browser, display and VNC server (for PSS measurement and tests). */
  processIds(id: string): Promise<number[]> {
    const live = this.#live.get(id);
    return live ? liveProcessIds(live) : Promise.resolve([]);
  }

  /** Whether sessions can go through an upstream proxy; a create that does not say gets one when it can. */
  get proxyAvailable(): boolean {
    return this.#launcher.proxyAvailable;
  }

  #died(live: LiveSession): void {
    if (live.closing || this.#live.get(live.id) !== live) return;
    this.#log.warn({ sessionId: live.id }, 'session browser died');
    void this.#close(live, 'error');
  }

  #close(live: LiveSession, reason: CloseReason): Promise<void> {
    live.closing ??= endSession(
      live,
      reason,
      { ...this.#o, files: this.#files, profiles: this.profiles },
      this.#log,
    ).finally(() => {
      // A resume may already have put a new browser under this id.
      if (this.#live.get(live.id) === live) this.#live.delete(live.id);
      this.#launcher.fillSpares();
    });
    return live.closing;
  }

  async #sweepOnce(): Promise<void> {
    const now = Date.now();
    const { idleTimeoutMs, maxLifetimeMs } = this.#o.config;
    for (const live of this.#live.values()) {
      if (live.closing) continue;
      if (now - live.lastActivityAt >= idleTimeoutMs || now - live.startedAt >= maxLifetimeMs) {
        void this.#close(live, 'timeout');
      } else if (live.lastActivityAt - live.persistedActivityAt >= PERSIST_ACTIVITY_EVERY_MS) {
        live.persistedActivityAt = live.lastActivityAt;
        await this.#o.store
          .update(live.id, { last_activity_at: live.lastActivityAt, last_url: live.lastUrl })
          .catch(() => undefined);
      }
    }
  }

  #runnable(name: string): RunnableBrowser {
    return runnableBrowser(name, this.#runnables);
  }

  #owned(userId: string, id: string): Promise<SessionRow> {
    return this.#ownership.owned(userId, id);
  }
}
