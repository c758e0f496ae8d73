import { createReadStream } from 'node:fs';
import { appendFile, lstat, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { RecordingSink } from './recording.ts';
import { UserFolders } from './user-folders.ts';

const EVENTS_FILE = 'events.ndjson';
const VIDEO_FILE = 'video.webm';
/** Present once a recording reached its size limit and later events were left out. */
const TRUNCATED_FILE = 'truncated';

export interface RecordingLimits {
  recordingMaxBytes: number;
  recordingRetentionMs: number;
}

/** A stored recording: its events as JSON lines, read when iterated. */
export interface StoredRecording {
  bytes: number;
  truncated: boolean;
  events(): AsyncIterable<string>;
}

/**
 * Where session recordings are kept (`<data>/session-recordings/<user>/<session>/`), outside the
 * session's sandbox so its browser cannot touch them, and apart from its lifetime: a recording
 * outlives its session's close and the service's restart, until it has gone
 * `recordingRetentionMs` without a new event.
 */
export class Recordings extends UserFolders {
  readonly #limits: RecordingLimits;

  constructor(dataDir: string, limits: RecordingLimits) {
    super(dataDir, 'session-recordings');
    this.#limits = limits;
  }

  /** Whether the session was recorded and its recording is still kept. */
  async exists(userId: string, sessionId: string): Promise<boolean> {
    const s = await lstat(join(this.of(userId, sessionId), EVENTS_FILE)).catch(() => undefined);
    return s?.isFile() ?? false;
  }

  /**
   * A sink appending to the session's recording (a resumed session's goes on where it stopped),
   * up to the size limit; past it, events are left out and the recording marked truncated.
   */
  async open(userId: string, sessionId: string): Promise<RecordingSink> {
    const folder = this.of(userId, sessionId);
    const file = join(folder, EVENTS_FILE);
    await mkdir(folder, { recursive: true });
    await appendFile(file, '');
    let bytes = (await stat(file)).size;
    let full = false;
    return {
      append: async (lines) => {
        if (full) return;
        const size = Buffer.byteLength(lines);
        if (bytes + size > this.#limits.recordingMaxBytes) {
          full = true;
          await writeFile(join(folder, TRUNCATED_FILE), '');
          return;
        }
        bytes += size;
        await appendFile(file, lines);
      },
    };
  }

  async read(userId: string, sessionId: string): Promise<StoredRecording | undefined> {
    const folder = this.of(userId, sessionId);
    const file = join(folder, EVENTS_FILE);
    const s = await lstat(file).catch(() => undefined);
    if (!s?.isFile()) return undefined;
    const truncated = await lstat(join(folder, TRUNCATED_FILE)).then(
      () => true,
      () => false,
    );
    return {
      bytes: s.size,
      truncated,
      // Up to the size seen now: lines a live session appends meanwhile wait for the next read.
      events: () =>
        s.size === 0
          ? (async function* () {})()
          : createInterface({
              input: createReadStream(file, { end: Math.max(0, s.size - 1), encoding: 'utf8' }),
              crlfDelay: Number.POSITIVE_INFINITY,
            }),
    };
  }

  /** Where a recorded visible session's video is written (video.ts). */
  videoPath(userId: string, sessionId: string): string {
    return join(this.of(userId, sessionId), VIDEO_FILE);
  }

  async openVideo(
    userId: string,
    sessionId: string,
  ): Promise<{ size: number; stream: Readable } | undefined> {
    const path = this.videoPath(userId, sessionId);
    const s = await lstat(path).catch(() => undefined);
    if (!s?.isFile()) return undefined;
    return { size: s.size, stream: createReadStream(path) };
  }

  /** Removes recordings nothing was added to for the retention time; `live` sessions' are kept. */
  async prune(now: number, live: Set<string>): Promise<number> {
    let removed = 0;
    const users = await readdir(this.root).catch(() => [] as string[]);
    for (const user of users) {
      const sessions = await readdir(this.ofUser(user)).catch(() => [] as string[]);
      for (const id of sessions) {
        if (live.has(id)) continue;
        const folder = this.of(user, id);
        const s = await stat(join(folder, EVENTS_FILE)).catch(() => undefined);
        const video = await stat(join(folder, VIDEO_FILE)).catch(() => undefined);
        const last = Math.max(s?.mtimeMs ?? 0, video?.mtimeMs ?? 0);
        if (now - last < this.#limits.recordingRetentionMs) continue;
        await rm(folder, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }
}
