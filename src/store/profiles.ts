import type { Kysely } from 'kysely';
import { usersRows } from './owned.ts';
import type { BrowserProfilesTable, Tables } from './schema.ts';

export type ProfileRow = BrowserProfilesTable;

/**
 * Named browser profiles per user, and which session holds each: taking and giving back a
 * profile are conditional updates, so two sessions racing for one cannot both have it.
 */
export class ProfileStore {
  readonly #db: Kysely<Tables>;

  constructor(db: Kysely<Tables>) {
    this.#db = db;
  }

  /** Adds a profile; false when the user already has one of that name. */
  async create(userId: string, name: string, now: number): Promise<boolean> {
    const result = await this.#db
      .insertInto('browser_profiles')
      .values({ user_id: userId, name, created_at: now, saved_at: null, in_use_by: null })
      .onConflict((oc) => oc.columns(['user_id', 'name']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async get(userId: string, name: string): Promise<ProfileRow | undefined> {
    const row = await usersRows(this.#db, 'browser_profiles', userId)
      .where('name', '=', name)
      .executeTakeFirst();
    return row && normalise(row);
  }

  async list(userId: string): Promise<ProfileRow[]> {
    const rows = await usersRows(this.#db, 'browser_profiles', userId).orderBy('name').execute();
    return rows.map(normalise);
  }

  /** Deletes a profile no session holds; false when it is absent or in use. */
  async deleteIfFree(userId: string, name: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('browser_profiles')
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .where('in_use_by', 'is', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Gives the profile to a session if no other holds it; false otherwise. */
  async acquire(userId: string, name: string, sessionId: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('browser_profiles')
      .set({ in_use_by: sessionId })
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .where('in_use_by', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The session gives the profile back, recording `savedAt` when it saved into it. */
  async release(userId: string, name: string, sessionId: string, savedAt?: number): Promise<void> {
    await this.#db
      .updateTable('browser_profiles')
      .set({ in_use_by: null, ...(savedAt === undefined ? {} : { saved_at: savedAt }) })
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .where('in_use_by', '=', sessionId)
      .execute();
  }

  /**
   * Frees the profiles held by sessions that are not active (closed at start-up after their
   * instance died, or never recorded because it died while they started).
   */
  async releaseInactive(): Promise<void> {
    await this.#db
      .updateTable('browser_profiles')
      .set({ in_use_by: null })
      .where('in_use_by', 'is not', null)
      .where('in_use_by', 'not in', (qb) =>
        qb.selectFrom('browser_sessions').select('id').where('status', '=', 'active'),
      )
      .execute();
  }
}

function normalise(row: ProfileRow): ProfileRow {
  return {
    ...row,
    created_at: Number(row.created_at),
    saved_at: row.saved_at === null ? null : Number(row.saved_at),
  };
}
