import type { SessionRow, SessionStore } from '../store/index.ts';
import { type LiveSession, SessionError } from './types.ts';

/**
 * Whose session is whose, for every read of one by id: the live sessions of this instance and
 * the stored rows of all of them. Another key's session is not found, as one that does not exist.
 */
export class SessionOwnership {
  readonly #store: SessionStore;
  /** The live sessions of this instance, by id (the manager's own map, read here). */
  readonly live: ReadonlyMap<string, LiveSession>;

  constructor(store: SessionStore, live: ReadonlyMap<string, LiveSession>) {
    this.#store = store;
    this.live = live;
  }

  /** The user's stored session, or not-found. */
  async owned(userId: string, id: string): Promise<SessionRow> {
    const row = await this.#store.get(id);
    if (!row || row.user_id !== userId) throw new SessionError('not-found', 'session not found');
    return row;
  }

  /** The user's session if it is live here; else undefined once the user is known to own it. */
  async usersLive(userId: string, id: string): Promise<LiveSession | undefined> {
    const live = this.live.get(id);
    if (live?.userId === userId) return live;
    await this.owned(userId, id);
    return undefined;
  }

  /** Any session's stored row (the replay page, which a token rather than a key opens). */
  row(id: string): Promise<SessionRow | undefined> {
    return this.#store.get(id);
  }
}
