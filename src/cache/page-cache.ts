import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import type { Tables } from '../store/index.ts';

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);
// Quality 4 compresses page JSON to about a fifth in a few milliseconds; the top quality (11)
// gains little more and takes hundreds on a large page.
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
/** Rows deleted per statement while evicting: bounds one statement's parameters. */
const EVICT_BATCH = 200;
/**
 * How often the index is read again whole (expired entries dropped, the byte total re-counted)
 * when no store went over the budget: a store costs one statement, not three, and what other
 * processes stored meanwhile is counted at the latest this long after.
 */
const RECOUNT_EVERY_MS = 60_000;

export interface PageCacheOptions {
  db: Kysely<Tables>;
  /** Folder of the compressed bodies. */
  dir: string;
  /** Most bytes of compressed bodies kept; the least recently used go first beyond it. */
  maxBytes: number;
  /** Longest an entry is kept whatever its use. */
  ttlMs: number;
  /** Whether a user may be served an entry another user's request stored. */
  shared: boolean;
}

/** A cached body and when it was fetched. */
export interface CacheEntry {
  body: string;
  cachedAt: number;
}

/** What `DELETE /v1/cache` removes: one normalised URL, or every URL starting with a prefix. */
export type CacheMatch = { url: string } | { prefix: string };

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The key of a cacheable request: a hash of everything that shapes its result, given in a fixed order. */
export function cacheKey(parts: readonly unknown[]): string {
  return sha256(JSON.stringify(parts));
}

/**
 * Scrape results kept for reuse: the index (who stored what, when, how big, when last used) in
 * the database so both backends and every process see one budget, the bodies brotli-compressed
 * as files under the data folder. Bounded by a byte budget (least recently used evicted first)
 * and an age limit. An entry whose file is gone (evicted meanwhile, or stored by another machine)
 * is a miss, never an error.
 */
export class PageCache {
  readonly #o: PageCacheOptions;
  /**
   * Writes under way in this process. A lookup or a delete waits for them, so that this process
   * never answers from a cache older than what it already said was stored (an eviction a write
   * will make included).
   */
  readonly #writing = new Set<Promise<void>>();
  /** The last write under way of each entry (by id), which the entry's next write follows. */
  readonly #writingEntry = new Map<string, Promise<void>>();
  /** The bodies' bytes as this process last counted them, plus what it stored since. */
  #bytes: number | undefined;
  #countedAt = 0;
  /** The trim under way, which stores meanwhile share. */
  #trimming: Promise<void> | undefined;
  /** The last use this process stamped. */
  #lastUse = 0;

  constructor(opts: PageCacheOptions) {
    this.#o = opts;
  }

  /**
   * A use's time, later than every use this process stamped before. Milliseconds alone tie when
   * a read follows a store within one, and a tie let the database pick either entry to evict.
   */
  #useStamp(): number {
    this.#lastUse = Math.max(Date.now(), this.#lastUse + 1);
    return this.#lastUse;
  }

  #file(id: string): string {
    return join(this.#o.dir, id.slice(0, 2), `${id}.br`);
  }

  /** The freshest entry for `key` the user may see, stored at or after `since`. */
  async get(scope: string, key: string, since: number): Promise<CacheEntry | undefined> {
    await this.#settled();
    let query = this.#o.db
      .selectFrom('page_cache')
      .select(['id', 'created_at'])
      .where('key', '=', key)
      .where('created_at', '>=', Math.max(since, Date.now() - this.#o.ttlMs));
    if (!this.#o.shared) query = query.where('scope', '=', scope);
    const row = await query.orderBy('created_at', 'desc').limit(1).executeTakeFirst();
    if (!row) return undefined;
    let body: string;
    try {
      body = (await decompress(await readFile(this.#file(row.id)))).toString('utf8');
    } catch {
      return undefined;
    }
    await this.#o.db
      .updateTable('page_cache')
      .set({ used_at: this.#useStamp() })
      .where('id', '=', row.id)
      .execute();
    return { body, cachedAt: row.created_at };
  }

  /**
   * Stores `body` as the user's entry for `key` (replacing an older one), then keeps to the budget.
   * Callers need not wait for it: lookups, deletes and `close` in this process do.
   */
  put(scope: string, key: string, url: string, body: string, cachedAt: number): Promise<void> {
    const id = sha256(`${scope}\0${key}`);
    // After the entry's write under way, if any: two writes of one entry side by side could land
    // in either order, and an older body that landed last was served as the newer one.
    const before = this.#writingEntry.get(id);
    const put = () => this.#put(id, scope, key, url, body, cachedAt);
    const write = before ? before.then(put, put) : put();
    this.#writing.add(write);
    this.#writingEntry.set(id, write);
    const done = () => {
      this.#writing.delete(write);
      if (this.#writingEntry.get(id) === write) this.#writingEntry.delete(id);
    };
    write.then(done, done);
    return write;
  }

  /** Waits for the writes under way, so that what was answered as stored is stored. */
  close(): Promise<void> {
    return this.#settled();
  }

  async #settled(): Promise<void> {
    if (this.#writing.size > 0) await Promise.allSettled([...this.#writing]);
  }

  async #put(
    id: string,
    scope: string,
    key: string,
    url: string,
    body: string,
    cachedAt: number,
  ): Promise<void> {
    const packed = await compress(Buffer.from(body, 'utf8'), BROTLI);
    if (packed.length > this.#o.maxBytes) return;
    const file = this.#file(id);
    await mkdir(join(this.#o.dir, id.slice(0, 2)), { recursive: true });
    // Written aside and renamed into place, so a reader never sees half a file.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, packed);
    await rename(tmp, file);
    const row = {
      key,
      scope,
      url,
      bytes: packed.length,
      created_at: cachedAt,
      used_at: this.#useStamp(),
    };
    await this.#o.db
      .insertInto('page_cache')
      .values({ id, ...row })
      .onConflict((oc) => oc.column('id').doUpdateSet(row))
      .execute();
    // A replaced entry is counted twice until the next count: an early trim, never a late one.
    if (this.#bytes !== undefined) this.#bytes += packed.length;
    const due =
      this.#bytes === undefined ||
      this.#bytes > this.#o.maxBytes ||
      Date.now() - this.#countedAt >= RECOUNT_EVERY_MS;
    if (due) await this.#trimOnce();
  }

  #trimOnce(): Promise<void> {
    this.#trimming ??= this.#trim().finally(() => {
      this.#trimming = undefined;
    });
    return this.#trimming;
  }

  /** Deletes the user's own entries matching `match`; returns how many. */
  async delete(scope: string, match: CacheMatch): Promise<number> {
    await this.#settled();
    let query = this.#o.db.selectFrom('page_cache').select('id').where('scope', '=', scope);
    query =
      'url' in match
        ? query.where('url', '=', match.url)
        : // substr rather than LIKE: the prefix may hold % and _, and SQLite's LIKE ignores case.
          query.where(sql<string>`substr(url, 1, ${match.prefix.length})`, '=', match.prefix);
    const ids = (await query.execute()).map((r) => r.id);
    await this.#remove(ids);
    return ids.length;
  }

  async #remove(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += EVICT_BATCH) {
      const batch = ids.slice(i, i + EVICT_BATCH);
      await this.#o.db.deleteFrom('page_cache').where('id', 'in', batch).execute();
      await Promise.all(batch.map((id) => rm(this.#file(id), { force: true })));
    }
  }

  /** Drops entries past the age limit, then the least recently used until within the byte budget. */
  async #trim(): Promise<void> {
    const expired = await this.#o.db
      .selectFrom('page_cache')
      .select('id')
      .where('created_at', '<', Date.now() - this.#o.ttlMs)
      .execute();
    await this.#remove(expired.map((r) => r.id));
    const total = await this.#o.db
      .selectFrom('page_cache')
      .select((eb) => eb.fn.sum<number | string>('bytes').as('bytes'))
      .executeTakeFirst();
    this.#bytes = Number(total?.bytes ?? 0);
    this.#countedAt = Date.now();
    let over = this.#bytes - this.#o.maxBytes;
    while (over > 0) {
      const oldest = await this.#o.db
        .selectFrom('page_cache')
        .select(['id', 'bytes'])
        .orderBy('used_at')
        .limit(EVICT_BATCH)
        .execute();
      if (oldest.length === 0) return;
      const gone: string[] = [];
      for (const row of oldest) {
        if (over <= 0) break;
        gone.push(row.id);
        over -= Number(row.bytes);
        this.#bytes -= Number(row.bytes);
      }
      await this.#remove(gone);
    }
  }
}
