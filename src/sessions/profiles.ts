import { randomUUID } from 'node:crypto';
import { cp, rename, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ProfileRow, ProfileStore } from '../store/index.ts';
import { SessionError } from './types.ts';
import { UserFolders } from './user-folders.ts';

/** A profile's name: also its folder's, so nothing a path could misread. */
export const PROFILE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';

export interface ProfileView {
  name: string;
  createdAt: string;
  savedAt: string | null;
  inUse: boolean;
}

function view(row: ProfileRow): ProfileView {
  return {
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    savedAt: row.saved_at === null ? null : new Date(row.saved_at).toISOString(),
    inUse: row.in_use_by !== null,
  };
}

/** Chromium's marks of a running browser; copied into another, they would read as "profile in use". */
const RUNNING_MARKS = new Set(['SingletonLock', 'SingletonCookie', 'SingletonSocket']);

/** Copies a user-data folder without the marks of the browser that ran on it. */
export function copyProfile(from: string, to: string): Promise<void> {
  return cp(from, to, {
    recursive: true,
    force: true,
    verbatimSymlinks: true,
    filter: (src) => !RUNNING_MARKS.has(basename(src)),
  });
}

/**
 * Named browser profiles of each user: a whole Chromium user-data folder under
 * `<data>/profiles/<user>/<name>`, copied into a session's sandbox when it starts and, when the
 * session says `save`, copied back once its browser has exited. One session holds a profile at a time.
 */
export class Profiles extends UserFolders {
  readonly #store: ProfileStore;

  constructor(dataDir: string, store: ProfileStore) {
    super(dataDir, 'profiles');
    this.#store = store;
  }

  async create(userId: string, name: string): Promise<ProfileView> {
    if (!(await this.#store.create(userId, name, Date.now())))
      throw new SessionError('conflict', `a profile named ${name} exists already`);
    return view((await this.#store.get(userId, name))!);
  }

  async list(userId: string): Promise<ProfileView[]> {
    return (await this.#store.list(userId)).map(view);
  }

  async get(userId: string, name: string): Promise<ProfileView> {
    const row = await this.#store.get(userId, name);
    if (!row) throw new SessionError('not-found', 'profile not found');
    return view(row);
  }

  async delete(userId: string, name: string): Promise<void> {
    if (!(await this.#store.deleteIfFree(userId, name))) {
      await this.get(userId, name);
      throw new SessionError('conflict', `profile ${name} is in use by a session; close it first`);
    }
    await rm(this.of(userId, name), { recursive: true, force: true });
  }

  /** Gives the profile to a session; its folder (absent until a first save) to start the browser from. */
  async take(userId: string, name: string, sessionId: string): Promise<string> {
    if (!(await this.#store.acquire(userId, name, sessionId))) {
      await this.get(userId, name);
      throw new SessionError('conflict', `profile ${name} is in use by another session`, {
        field: 'profile.name',
      });
    }
    return this.of(userId, name);
  }

  /**
   * Gives the profile back; with `from`, first replaces its folder with that user-data folder
   * (copied beside it, then renamed over it, so a failed copy leaves the last save whole).
   */
  async giveBack(userId: string, name: string, sessionId: string, from?: string): Promise<void> {
    let savedAt: number | undefined;
    const folder = this.of(userId, name);
    const next = `${folder}.saving-${randomUUID()}`;
    try {
      if (from) {
        await copyProfile(from, next);
        await rm(folder, { recursive: true, force: true });
        await rename(next, folder);
        savedAt = Date.now();
      }
    } finally {
      await rm(next, { recursive: true, force: true });
      await this.#store.release(userId, name, sessionId, savedAt);
    }
  }

  releaseInactive(): Promise<void> {
    return this.#store.releaseInactive();
  }
}
