import type { Kysely, Updateable } from 'kysely';
import type { BrowserSessionsTable, Tables } from './schema.ts';

export type SessionRow = BrowserSessionsTable;
export type SessionPatch = Updateable<BrowserSessionsTable>;

/** Persistence of browser sessions: what survives the browser, the process and a restart. */
export class SessionStore {
  readonly #db: Kysely<Tables>;

  constructor(db: Kysely<Tables>) {
    this.#db = db;
  }

  async insert(row: SessionRow): Promise<void> {
    await this.#db.insertInto('browser_sessions').values(row).execute();
  }

  async get(id: string): Promise<SessionRow | undefined> {
    const row = await this.#db
      .selectFrom('browser_sessions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && normalise(row);
  }

  async update(id: string, patch: SessionPatch): Promise<void> {
    await this.#db.updateTable('browser_sessions').set(patch).where('id', '=', id).execute();
  }

  /**
   * Moves a session from active to closed only if it is still active, so two closers (a time-out
   * racing a DELETE) cannot both bill it. Returns whether this call closed it.
   */
  closeIfActive(id: string, patch: SessionPatch): Promise<boolean> {
    return this.#move(id, 'active', 'closed', patch);
  }

  /** The resume counterpart of closeIfActive: only one resume of a closed session wins. */
  reopenIfClosed(id: string, patch: SessionPatch): Promise<boolean> {
    return this.#move(id, 'closed', 'active', patch);
  }

  /** One conditional update, so of two racing moves out of the same status only one wins. */
  async #move(
    id: string,
    from: 'active' | 'closed',
    to: 'active' | 'closed',
    patch: SessionPatch,
  ): Promise<boolean> {
    const result = await this.#db
      .updateTable('browser_sessions')
      .set({ ...patch, status: to })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Sessions still marked active for an instance: at start-up, those of its previous life. */
  async activeOn(instanceUrl: string): Promise<SessionRow[]> {
    const rows = await this.#db
      .selectFrom('browser_sessions')
      .selectAll()
      .where('instance_url', '=', instanceUrl)
      .where('status', '=', 'active')
      .execute();
    return rows.map(normalise);
  }
}

// pg returns bigint columns as numbers (see db.ts) but SQLite may hand back bigint for large values.
function normalise(row: SessionRow): SessionRow {
  return {
    ...row,
    billed_micros: Number(row.billed_micros),
    headless: Number(row.headless),
    proxy: Number(row.proxy),
  };
}
