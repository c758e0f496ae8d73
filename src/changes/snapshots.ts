import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../store/index.ts';

export interface Snapshot {
  markdown: string;
  /** The extraction's object, kept when change tracking's json mode compared one. */
  json?: unknown;
  at: number;
}

/** Where a snapshot belongs: the user, the page in its normalised spelling, and the caller's tag. */
export interface SnapshotPlace {
  scope: string;
  url: string;
  tag: string;
}

const idOf = (p: SnapshotPlace) =>
  createHash('sha256').update(`${p.scope}\0${p.url}\0${p.tag}`).digest('hex');

/**
 * The last page change tracking saw, one row per user, URL and tag, in the store (both backends).
 * Only the latest is kept: each comparison is against the scrape before it. Rows older than the
 * retention are deleted as new ones are saved.
 */
export class SnapshotStore {
  readonly #db: Kysely<Tables>;
  readonly #retentionMs: number;

  constructor(db: Kysely<Tables>, retentionMs: number) {
    this.#db = db;
    this.#retentionMs = retentionMs;
  }

  async latest(place: SnapshotPlace): Promise<Snapshot | undefined> {
    const row = await this.#db
      .selectFrom('page_snapshots')
      .select(['markdown', 'json', 'created_at'])
      .where('id', '=', idOf(place))
      .where('created_at', '>=', Date.now() - this.#retentionMs)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      markdown: row.markdown,
      ...(row.json !== null ? { json: JSON.parse(row.json) as unknown } : {}),
      at: row.created_at,
    };
  }

  async save(place: SnapshotPlace, snapshot: Snapshot): Promise<void> {
    const row = {
      ...place,
      markdown: snapshot.markdown,
      json: snapshot.json === undefined ? null : JSON.stringify(snapshot.json),
      created_at: snapshot.at,
    };
    await this.#db
      .insertInto('page_snapshots')
      .values({ id: idOf(place), ...row })
      .onConflict((oc) => oc.column('id').doUpdateSet(row))
      .execute();
    await this.#db
      .deleteFrom('page_snapshots')
      .where('created_at', '<', Date.now() - this.#retentionMs)
      .execute();
  }

  /** Forgets a page that is gone, so that its return is new. */
  async forget(place: SnapshotPlace): Promise<void> {
    await this.#db.deleteFrom('page_snapshots').where('id', '=', idOf(place)).execute();
  }
}
