import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { cp, lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SessionError } from './types.ts';
import { UserFolders } from './user-folders.ts';

/**
 * A session's files: one folder in the session's own folder (so inside its sandbox) holding what
 * the API uploads and what the page downloads. The CDP policy lets file inputs name files there
 * and nothing else; a close copies the folder into the data folder, and a resume copies it back.
 */
export const FILES_FOLDER = 'files';

export interface SessionFile {
  name: string;
  size: number;
  modifiedAt: string;
  /** The path a CDP client names in `setInputFiles`/`uploadFile`; null while the session is closed. */
  path: string | null;
}

export interface FileLimits {
  fileMaxBytes: number;
  filesMax: number;
  filesQuotaBytes: number;
}

/** Why `name` is not a plain file name of a files folder; undefined when it is one. */
export function fileNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (Buffer.byteLength(name) > 255) return 'must be at most 255 bytes';
  if (name.includes('/') || name.includes('\\')) return 'must be a file name, without a folder';
  // Dot names are the folder's own (., ..) and in-progress uploads (.upload-*).
  if (name.startsWith('.')) return 'must not start with a dot';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'must not contain control characters';
  return undefined;
}

/** Chromium writes a download under this suffix until it is complete. */
const IN_PROGRESS = '.crdownload';

/** The complete regular files of a folder, oldest first; an absent folder has none. */
export async function listFolder(dir: string, visible: boolean): Promise<SessionFile[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: SessionFile[] = [];
  for (const e of entries) {
    if (!e.isFile() || fileNameProblem(e.name) || e.name.endsWith(IN_PROGRESS)) continue;
    const stat = await lstat(join(dir, e.name)).catch(() => undefined);
    if (!stat?.isFile()) continue;
    files.push({
      name: e.name,
      size: stat.size,
      modifiedAt: stat.mtime.toISOString(),
      path: visible ? join(dir, e.name) : null,
    });
  }
  return files.sort(
    (a, b) => a.modifiedAt.localeCompare(b.modifiedAt) || a.name.localeCompare(b.name),
  );
}

async function folderBytes(dir: string): Promise<number> {
  return (await listFolder(dir, false)).reduce((sum, f) => sum + f.size, 0);
}

/** A regular file of the folder by a name already checked, or undefined. */
export async function openFile(
  dir: string,
  name: string,
): Promise<{ size: number; stream: Readable } | undefined> {
  const path = join(dir, name);
  const stat = await lstat(path).catch(() => undefined);
  if (!stat?.isFile() || name.endsWith(IN_PROGRESS)) return undefined;
  // Larger reads than the 64 KiB default: a session file is read whole, and fewer chunks cost less.
  return { size: stat.size, stream: createReadStream(path, { highWaterMark: 1024 * 1024 }) };
}

export async function deleteFile(dir: string, name: string): Promise<boolean> {
  const stat = await lstat(join(dir, name)).catch(() => undefined);
  if (!stat?.isFile()) return false;
  await rm(join(dir, name), { force: true });
  return true;
}

/**
 * Passes bytes on until `limit`; past it, reads the rest of the upload without passing it on, so
 * the client, still sending, reads the refusal (the request's time limit bounds how long).
 */
function capped(limit: number): { stream: Transform; over: () => boolean } {
  let seen = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) done();
      else done(null, chunk);
    },
  });
  return { stream, over: () => seen > limit };
}

/**
 * Where sessions' files wait while their sessions are closed (`<data>/session-files/<user>/<session>`),
 * and the limits every upload is held to.
 */
export class SessionFiles extends UserFolders {
  readonly #limits: FileLimits;

  constructor(dataDir: string, limits: FileLimits) {
    super(dataDir, 'session-files');
    this.#limits = limits;
  }

  savedFolder(userId: string, sessionId: string): string {
    return this.of(userId, sessionId);
  }

  /** Replaces the saved copy of a closing session's files with the folder as it is now. */
  async save(userId: string, sessionId: string, from: string): Promise<void> {
    const to = this.savedFolder(userId, sessionId);
    await rm(to, { recursive: true, force: true });
    if ((await listFolder(from, false)).length === 0) return;
    await mkdir(this.ofUser(userId), { recursive: true });
    await cp(from, to, {
      recursive: true,
      preserveTimestamps: true,
      filter: (src) => !src.endsWith(IN_PROGRESS),
    });
  }

  /** Puts a resumed session's saved files into its new files folder. */
  async restore(userId: string, sessionId: string, into: string): Promise<void> {
    const from = this.savedFolder(userId, sessionId);
    if ((await listFolder(from, false)).length === 0) return;
    await cp(from, into, { recursive: true, preserveTimestamps: true });
  }

  /**
   * Bytes a key keeps: the files folders of its live sessions (`live`, by session id) and the
   * saved files of its other sessions.
   */
  async usedBytes(userId: string, live: Map<string, string>): Promise<number> {
    let used = 0;
    for (const dir of live.values()) used += await folderBytes(dir);
    const saved = await readdir(this.ofUser(userId)).catch(() => [] as string[]);
    for (const id of saved)
      if (!live.has(id)) used += await folderBytes(this.savedFolder(userId, id));
    return used;
  }

  /**
   * Writes an upload into `dir` under `name` (replacing a file of that name), held to the file
   * size limit, the folder's file count and what is left of the key's quota (`used` bytes kept
   * now). `visible`: the folder is a live session's, whose browser sees it. Written under a dot name first, so a file half uploaded is never listed or chosen.
   */
  async write(
    dir: string,
    name: string,
    body: Readable,
    o: { used: number; visible: boolean },
  ): Promise<SessionFile> {
    const existing = await listFolder(dir, false);
    const replaced = existing.find((f) => f.name === name);
    if (!replaced && existing.length >= this.#limits.filesMax) {
      body.resume();
      throw new SessionError(
        'conflict',
        `the session's folder holds ${existing.length} files, the most WEBDATA_SESSION_FILES_MAX allows; delete some first`,
      );
    }
    const { fileMaxBytes, filesQuotaBytes } = this.#limits;
    const quotaLeft = filesQuotaBytes - o.used + (replaced?.size ?? 0);
    const limit = Math.min(fileMaxBytes, Math.max(0, quotaLeft));
    const tooLarge =
      limit === fileMaxBytes
        ? `file is larger than ${fileMaxBytes} bytes, the most WEBDATA_SESSION_FILE_MAX_BYTES allows`
        : `file does not fit in this key's session file quota: ${Math.max(0, quotaLeft)} of ${filesQuotaBytes} bytes (WEBDATA_SESSION_FILES_QUOTA_BYTES) left`;
    const partial = join(dir, `.upload-${randomUUID()}`);
    await mkdir(dir, { recursive: true });
    const cap = capped(limit);
    try {
      await pipeline(body, cap.stream, createWriteStream(partial));
      if (cap.over()) throw new SessionError('too-large', tooLarge, { field: 'file' });
      await rename(partial, join(dir, name));
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    const stat = await lstat(join(dir, name));
    return {
      name,
      size: stat.size,
      modifiedAt: stat.mtime.toISOString(),
      path: o.visible ? join(dir, name) : null,
    };
  }
}
