import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { groupPids } from '../browser/index.ts';
import type { ChromiumPaths, SessionConfig } from '../config.ts';
import type { LedgerStore, ProfileStore, SessionRow, SessionStore } from '../store/index.ts';
import { closeOrphans } from './billing.ts';
import type { RunningBrowser } from './chromium.ts';
import { endSession } from './end-session.ts';
import {
  deleteFile,
  fileNameProblem,
  listFolder,
  openFile,
  type SessionFile,
  SessionFiles,
} from './files.ts';
import { LaunchSlots } from './launch-slots.ts';
import { type LaunchRequest, SessionLauncher } from './launcher.ts';
import { newLiveSession, watchTargets } from './live-session.ts';
import { Profiles } from './profiles.ts';
import { claimRuntime, killMarked, RUNTIME_MARKER, RUNTIME_PREFIX, reapAbandoned } from './reap.ts';
import { SessionRecordings } from './session-recordings.ts';
import { restoreState, type StorageState } from './state.ts';
import { tokenMatches } from './tokens.ts';
import {
  type CloseReason,
  type CreateOptions,
  type LiveSession,
  type PublicSession,
  type SessionCreated,
  type SessionDetails,
  SessionError,
  type SessionRecording,
} from './types.ts';
import { createdView, liveDetails, publicView, rowDetails } from './views.ts';
import { VncPipeline } from './vnc.ts';

/** Engines this build can run. camoufox and lightpanda are named by the spec but not installed here. */
const RUNNABLE_BROWSERS = ['chromium'];

export interface SessionManagerOptions {
  config: SessionConfig;
  chromium: ChromiumPaths;
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

/** A file name from a URL, checked before it is joined to a folder. */
function checkedName(name: string): string {
  const problem = fileNameProblem(name);
  if (problem) throw new SessionError('bad-request', `file name ${problem}`, { field: 'name' });
  return name;
}

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
  readonly #files: SessionFiles;
  /** Named browser profiles of each key (create, list, get, delete), used by sessions here. */
  readonly profiles: Profiles;
  readonly #recordings: SessionRecordings;
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
    this.#files = new SessionFiles(o.dataDir, o.config);
    this.profiles = new Profiles(o.dataDir, o.profiles);
    this.#recordings = new SessionRecordings(o.dataDir, o.config, o.publicUrl);
    this.#launcher = new SessionLauncher({
      config: o.config,
      chromium: o.chromium,
      root: this.#root,
      proxyUrl: o.proxyUrl,
      upstreamProxyUrl: o.upstreamProxyUrl,
    });
  }

  /** Folder holding every browser profile of this instance; its path marks the processes too. */
  get runtimeRoot(): string {
    return this.#root;
  }

  browsers(): string[] {
    return [...RUNNABLE_BROWSERS];
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
    await this.#recordings.start(() => new Set(this.#live.keys()));
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
    this.#recordings.stop();
    // A shutdown ends sessions the service did not choose to end: closeReason `error`, with the
    // storage saved so they can be resumed once the service is back.
    await Promise.allSettled([...this.#live.values()].map((live) => this.#close(live, 'error')));
    await this.#launcher.stop();
    await killMarked(this.#root);
    await rm(this.#root, { recursive: true, force: true });
  }

  async create(userId: string, opts: CreateOptions): Promise<SessionCreated> {
    const browser = this.#checkBrowser(opts.browser ?? this.#o.config.defaultBrowser);
    if (opts.record?.video && opts.headless)
      throw new SessionError(
        'bad-request',
        'video needs a visible session (headless: false): it is taken from its display',
        { field: 'record.video' },
      );
    if (opts.proxy && !this.proxyAvailable)
      throw new SessionError(
        'bad-request',
        'no default upstream proxy is configured on this server (WEBDATA_PROXY_URLS has no * entry)',
        { field: 'proxy' },
      );
    const id = randomUUID();
    const profile = opts.profile;
    const profileFrom = profile && (await this.profiles.take(userId, profile.name, id));
    const created = this.#begin(userId, { ...opts, profileFrom }, async (running) => {
      const now = Date.now();
      const live = newLiveSession({
        id,
        userId,
        ...opts,
        profile,
        browser,
        createdAt: now,
        startedAt: now,
        billedMicros: 0,
        running,
      });
      await watchTargets(live, () => this.#died(live));
      if (opts.record)
        await this.#recordings.record(live, opts.record.video ? this.#helperEnv() : undefined);
      await this.#o.store.insert({
        id: live.id,
        user_id: userId,
        status: 'active',
        browser,
        headless: opts.headless ? 1 : 0,
        proxy: opts.proxy ? 1 : 0,
        width: opts.width,
        height: opts.height,
        token_hash: live.tokenHash.toString('hex'),
        instance_url: this.#o.publicUrl,
        storage_state: null,
        last_url: null,
        close_reason: null,
        created_at: now,
        started_at: now,
        closed_at: null,
        last_activity_at: now,
        billed_micros: 0,
      });
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
    const browser = this.#checkBrowser(row.browser);
    const headless = row.headless === 1;
    if (row.proxy === 1 && !this.proxyAvailable)
      throw new SessionError(
        'unavailable',
        'the session ran through an upstream proxy and none is configured now',
      );
    return this.#begin(
      userId,
      { headless, width: row.width, height: row.height, proxy: row.proxy === 1 },
      async (running) => {
        const state = JSON.parse(row.storage_state!) as StorageState;
        const now = Date.now();
        const live = newLiveSession({
          id,
          userId,
          browser,
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
        await restoreState(running.control, state, live.ownTargets);
        await this.#recordings.recordIfRecorded(live);
        await watchTargets(live, () => this.#died(live));
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
  async openVnc(live: LiveSession): Promise<string> {
    const display = live.running.display;
    if (!display)
      throw new SessionError(
        'bad-request',
        'live view is only available for visible (headless: false) sessions',
      );
    live.vnc ??= new VncPipeline(display.display, join(live.running.dir, 'vnc.sock'), {
      ...this.#helperEnv(),
      DISPLAY: display.display,
    });
    return live.vnc.acquire();
  }

  /** The environment of a session's helper processes (x11vnc, ffmpeg): marked for the reaper. */
  #helperEnv(): NodeJS.ProcessEnv {
    return { ...process.env, [RUNTIME_MARKER]: this.#root };
  }

  closeVnc(live: LiveSession): void {
    live.vnc?.release();
  }

  /** Process ids of a live session's browser, display and VNC server (for PSS measurement and tests). */
  async processIds(id: string): Promise<number[]> {
    const live = this.#live.get(id);
    if (!live) return [];
    const groups = live.running.groups.map((g) => g.pgid);
    if (live.vnc?.pgid) groups.push(live.vnc.pgid);
    if (live.video) groups.push(live.video.pgid);
    return (await Promise.all(groups.map((g) => groupPids(g)))).flat();
  }

  /** The recording of a session of the user's, live or closed, with a replay token. */
  async recording(userId: string, id: string): Promise<SessionRecording> {
    return this.#recordings.read(userId, id, await this.#usersLive(userId, id));
  }

  /** A closed recorded visible session's video (WebM). */
  async recordingVideo(userId: string, id: string): Promise<{ size: number; stream: Readable }> {
    return this.#recordings.video(userId, id, await this.#usersLive(userId, id));
  }

  /** The user's session if it is live here; else undefined once the user is known to own it. */
  async #usersLive(userId: string, id: string): Promise<LiveSession | undefined> {
    const live = this.#live.get(id);
    if (live?.userId === userId) return live;
    await this.#owned(userId, id);
    return undefined;
  }

  /**
   * The recording a replay token (or the owner's API key, checked by the caller, as `userId`)
   * opens; any other token finds nothing, as another key's session is not found.
   */
  async recordingFor(
    id: string,
    access: { token: string } | { userId: string },
  ): Promise<SessionRecording> {
    const row = await this.#o.store.get(id);
    const allowed =
      row &&
      ('userId' in access
        ? access.userId === row.user_id
        : await this.#recordings.tokenValid(access.token, id, row.user_id));
    if (!row || !allowed) throw new SessionError('not-found', 'recording not found');
    return this.#recordings.read(row.user_id, id, this.#live.get(id));
  }

  /** The files of a session of the user's: its live folder, or what its last close saved. */
  async listFiles(userId: string, id: string): Promise<SessionFile[]> {
    const { dir, visible } = await this.#filesFolder(userId, id);
    return listFolder(dir, visible);
  }

  async openFile(
    userId: string,
    id: string,
    name: string,
  ): Promise<{ size: number; stream: Readable }> {
    const { dir } = await this.#filesFolder(userId, id);
    const file = await openFile(dir, checkedName(name));
    if (!file) throw new SessionError('not-found', 'file not found');
    return file;
  }

  async deleteFile(userId: string, id: string, name: string): Promise<void> {
    const { dir } = await this.#filesFolder(userId, id);
    if (!(await deleteFile(dir, checkedName(name))))
      throw new SessionError('not-found', 'file not found');
  }

  /** Writes an upload into the session's files, within the limits and the user's quota. */
  async writeFile(userId: string, id: string, name: string, body: Readable): Promise<SessionFile> {
    const problem = fileNameProblem(name);
    if (problem) {
      body.resume();
      throw new SessionError('bad-request', `file name ${problem}`, { field: 'file' });
    }
    const { dir, visible } = await this.#filesFolder(userId, id);
    const live = new Map<string, string>();
    for (const l of this.#live.values())
      if (l.userId === userId && !l.closing) live.set(l.id, l.running.files);
    const used = await this.#files.usedBytes(userId, live);
    return this.#files.write(dir, name, body, { used, visible });
  }

  /** A live session's files folder, or the saved one of a session that is not live here. */
  async #filesFolder(userId: string, id: string): Promise<{ dir: string; visible: boolean }> {
    const live = this.#live.get(id);
    if (live && live.userId === userId && !live.closing)
      return { dir: live.running.files, visible: true };
    // A close still copying the folder finishes first, so what it saves is what is read.
    await live?.closing;
    const row = await this.#owned(userId, id);
    if (row.status === 'active' && !this.#live.has(id))
      throw new SessionError(
        'conflict',
        `session runs on another instance (${row.instance_url}); send the request there`,
      );
    return { dir: this.#files.savedFolder(userId, id), visible: false };
  }

  #checkBrowser(browser: string): string {
    if (!RUNNABLE_BROWSERS.includes(browser)) {
      throw new SessionError(
        'bad-request',
        `${browser} is not available on this server; available: ${RUNNABLE_BROWSERS.join(', ')}`,
        { field: 'browser' },
      );
    }
    return browser;
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

  async #owned(userId: string, id: string): Promise<SessionRow> {
    const row = await this.#o.store.get(id);
    if (!row || row.user_id !== userId) throw new SessionError('not-found', 'session not found');
    return row;
  }
}
