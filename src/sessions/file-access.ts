import type { Readable } from 'node:stream';
import {
  deleteFile,
  fileNameProblem,
  listFolder,
  openFile,
  type SessionFile,
  type SessionFiles,
} from './files.ts';
import type { SessionOwnership } from './ownership.ts';
import { SessionError } from './types.ts';

/** A file name from a URL, checked before it is joined to a folder. */
function checkedName(name: string): string {
  const problem = fileNameProblem(name);
  if (problem) throw new SessionError('bad-request', `file name ${problem}`, { field: 'name' });
  return name;
}

/**
 * The files API of a user's sessions: a live session's own folder, or what its last close saved
 * for one that is not live, each read only by its owner, uploads within the limits and the key's
 * quota.
 */
export class SessionFileAccess {
  readonly #files: SessionFiles;
  readonly #sessions: SessionOwnership;

  constructor(files: SessionFiles, sessions: SessionOwnership) {
    this.#files = files;
    this.#sessions = sessions;
  }

  async list(userId: string, id: string): Promise<SessionFile[]> {
    const { dir, visible } = await this.#folder(userId, id);
    return listFolder(dir, visible);
  }

  async open(
    userId: string,
    id: string,
    name: string,
  ): Promise<{ size: number; stream: Readable }> {
    const { dir } = await this.#folder(userId, id);
    const file = await openFile(dir, checkedName(name));
    if (!file) throw new SessionError('not-found', 'file not found');
    return file;
  }

  async delete(userId: string, id: string, name: string): Promise<void> {
    const { dir } = await this.#folder(userId, id);
    if (!(await deleteFile(dir, checkedName(name))))
      throw new SessionError('not-found', 'file not found');
  }

  /** Writes an upload into the session's files, within the limits and the user's quota. */
  async write(userId: string, id: string, name: string, body: Readable): Promise<SessionFile> {
    const problem = fileNameProblem(name);
    if (problem) {
      body.resume();
      throw new SessionError('bad-request', `file name ${problem}`, { field: 'file' });
    }
    const { dir, visible } = await this.#folder(userId, id);
    const live = new Map<string, string>();
    for (const l of this.#sessions.live.values())
      if (l.userId === userId && !l.closing) live.set(l.id, l.running.files);
    const used = await this.#files.usedBytes(userId, live);
    return this.#files.write(dir, name, body, { used, visible });
  }

  /** A live session's files folder, or the saved one of a session that is not live here. */
  async #folder(userId: string, id: string): Promise<{ dir: string; visible: boolean }> {
    const live = this.#sessions.live.get(id);
    if (live && live.userId === userId && !live.closing)
      return { dir: live.running.files, visible: true };
    // A close still copying the folder finishes first, so what it saves is what is read.
    await live?.closing;
    const row = await this.#sessions.owned(userId, id);
    if (row.status === 'active' && !this.#sessions.live.has(id))
      throw new SessionError(
        'conflict',
        `session runs on another instance (${row.instance_url}); send the request there`,
      );
    return { dir: this.#files.savedFolder(userId, id), visible: false };
  }
}
