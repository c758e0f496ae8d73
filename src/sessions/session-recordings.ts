import type { Readable } from 'node:stream';
import type { SessionConfig } from '../config.ts';
import type { SessionOwnership } from './ownership.ts';
import { Recorder } from './recording.ts';
import { Recordings } from './recordings.ts';
import { ReplayTokens } from './replay-tokens.ts';
import { type LiveSession, SessionError, type SessionRecording } from './types.ts';
import { VideoCapture } from './video.ts';

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The sessions' recordings: a recorder started on a recorded session (and again on its resume),
 * its events and video read back by their owner (the events with a fresh replay token) or by a
 * replay token, and recordings past their retention removed.
 */
export class SessionRecordings {
  readonly #store: Recordings;
  readonly #tokens: ReplayTokens;
  readonly #publicUrl: string;
  readonly #sessions: SessionOwnership;
  #pruning: NodeJS.Timeout | undefined;

  constructor(
    dataDir: string,
    config: SessionConfig,
    publicUrl: string,
    sessions: SessionOwnership,
  ) {
    this.#store = new Recordings(dataDir, config);
    this.#tokens = new ReplayTokens(dataDir, config.replayTokenTtlMs);
    this.#publicUrl = publicUrl;
    this.#sessions = sessions;
  }

  /** The recording of a session of the user's, live or closed, with a replay token. */
  async ofUser(userId: string, id: string): Promise<SessionRecording> {
    return this.#read(userId, id, await this.#sessions.usersLive(userId, id));
  }

  /** A closed recorded visible session's video (WebM). */
  async videoOfUser(userId: string, id: string): Promise<{ size: number; stream: Readable }> {
    return this.#video(userId, id, await this.#sessions.usersLive(userId, id));
  }

  /**
   * The recording a replay token (or the owner's API key, checked by the caller, as `userId`)
   * opens; any other token finds nothing, as another key's session is not found.
   */
  async forAccess(
    id: string,
    access: { token: string } | { userId: string },
  ): Promise<SessionRecording> {
    const row = await this.#sessions.row(id);
    const allowed =
      row &&
      ('userId' in access
        ? access.userId === row.user_id
        : await this.#tokens.valid(access.token, id, row.user_id, Date.now()));
    if (!row || !allowed) throw new SessionError('not-found', 'recording not found');
    return this.#read(row.user_id, id, this.#sessions.live.get(id));
  }

  /** Prunes now and hourly; `live` names the sessions whose recordings are still growing. */
  async start(live: () => Set<string>): Promise<void> {
    await this.#store.prune(Date.now(), live());
    this.#pruning = setInterval(
      () => void this.#store.prune(Date.now(), live()).catch(() => undefined),
      PRUNE_EVERY_MS,
    );
    this.#pruning.unref();
  }

  stop(): void {
    clearInterval(this.#pruning);
  }

  /**
   * Starts recording a session's pages, and with `videoEnv` (the environment ffmpeg runs with) its
   * display as video.
   */
  async record(live: LiveSession, videoEnv?: NodeJS.ProcessEnv): Promise<void> {
    // A create refuses recording on other families (create-checks.ts), so none has a recording to resume.
    if (live.running.family !== 'chromium') return;
    const sink = await this.#store.open(live.userId, live.id);
    live.recorder = new Recorder(live.running.control, live.running.pages, sink);
    const display = live.running.display;
    if (videoEnv && display)
      live.video = new VideoCapture({
        display: display.display,
        width: live.width,
        height: live.height,
        out: this.#store.videoPath(live.userId, live.id),
        env: { ...videoEnv, DISPLAY: display.display },
      });
  }

  /** A closed recorded session's video; live sessions' videos are finished at their close. */
  async #video(
    userId: string,
    sessionId: string,
    live: LiveSession | undefined,
  ): Promise<{ size: number; stream: Readable }> {
    if (live?.video && !live.closedAt)
      throw new SessionError(
        'conflict',
        'the video is finished when the session closes; close it first (DELETE)',
      );
    await live?.closing;
    const video = await this.#store.openVideo(userId, sessionId);
    if (!video)
      throw new SessionError(
        'not-found',
        'session has no video: it was not created with record: { video: true } and headless: false, or its recording is older than WEBDATA_SESSION_RECORDING_RETENTION_MS',
      );
    return video;
  }

  /** A resumed session goes on recording when it was recorded before (and its recording is kept). */
  async recordIfRecorded(live: LiveSession): Promise<void> {
    if (await this.#store.exists(live.userId, live.id)) await this.record(live);
  }

  /** The recording of a session the caller owns (checked before), with a replay token. */
  async #read(
    userId: string,
    sessionId: string,
    live: LiveSession | undefined,
  ): Promise<SessionRecording> {
    await live?.recorder?.flush();
    const stored = await this.#store.read(userId, sessionId);
    if (!stored)
      throw new SessionError(
        'not-found',
        'session has no recording: it was not created with record: true, or its recording is older than WEBDATA_SESSION_RECORDING_RETENTION_MS',
      );
    const { token, expiresAt } = await this.#tokens.issue(sessionId, userId, Date.now());
    const query = new URLSearchParams({ sessionId, token });
    return {
      sessionId,
      token,
      expiresAt: new Date(expiresAt).toISOString(),
      replayUrl: `${this.#publicUrl}/replay?${query}`,
      bytes: stored.bytes,
      truncated: stored.truncated,
      events: stored.events(),
    };
  }
}
