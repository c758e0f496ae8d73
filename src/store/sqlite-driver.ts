import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely's SqliteDialect speaks the better-sqlite3 interface. That package is a node-gyp addon,
 * which we avoid (it would build against the machine's Node headers, not Node 24's), so this
 * adapts the built-in node:sqlite to the same few methods. No published package does this for
 * Kysely 0.29 on node:sqlite.
 */
class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #stmt: StatementSync;

  constructor(stmt: StatementSync) {
    this.#stmt = stmt;
    this.reader = stmt.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#stmt.all(...(parameters as never[]));
  }

  run(parameters: ReadonlyArray<unknown>): { changes: number | bigint; lastInsertRowid: number | bigint } {
    return this.#stmt.run(...(parameters as never[]));
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#stmt.iterate(...(parameters as never[])) as IterableIterator<unknown>;
  }
}

/**
 * Prepared statements kept per connection, by SQL text. Kysely compiles the same few shapes over
 * and over; preparing a statement costs about as much as running it, so reuse halves the work.
 */
const STATEMENT_CACHE = 200;

export function openSqlite(path: string): SqliteDatabase & { raw: DatabaseSync } {
  const raw = new DatabaseSync(path);
  // WAL lets readers (GET polls) proceed while a worker writes results; busy_timeout rides out
  // the short write locks of a second process (a CLI `keys create` against a running server).
  raw.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;');
  const cache = new Map<string, NodeSqliteStatement>();
  return {
    raw,
    close: () => raw.close(),
    prepare: (sql: string) => {
      const cached = cache.get(sql);
      if (cached) {
        // Most recently used last, so the first is the one to drop.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const made = new NodeSqliteStatement(raw.prepare(sql));
      cache.set(sql, made);
      if (cache.size > STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
      return made;
    },
  };
}
