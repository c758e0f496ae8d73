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
  readonly #fresh: () => StatementSync;

  /** `stmt` may be shared with every use of the same SQL; `fresh` prepares one of its own. */
  constructor(stmt: StatementSync, fresh: () => StatementSync) {
    this.#stmt = stmt;
    this.#fresh = fresh;
    this.reader = stmt.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#stmt.all(...(parameters as never[]));
  }

  run(parameters: ReadonlyArray<unknown>): {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  } {
    return this.#stmt.run(...(parameters as never[]));
  }

  /** An iteration stays open across awaits, so it gets a statement no other query can reset under it. */
  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#fresh().iterate(...(parameters as never[])) as IterableIterator<unknown>;
  }
}

/** Distinct SQL texts kept prepared: the app's queries are a few dozen shapes; bounded all the same. */
const STATEMENT_CACHE = 256;

/**
 * Prepared statements by SQL text. Kysely prepares every query it runs, and preparing costs more
 * than running a small query (the key lookup of every request, its ledger insert). Sharing one is
 * safe for `all` and `run`: node:sqlite runs them to the end synchronously, so no other use of the
 * statement can come in between. SQLite re-prepares a statement by itself after a schema change.
 */
function statementCache(raw: DatabaseSync): (sql: string) => StatementSync {
  const cache = new Map<string, StatementSync>();
  return (sql) => {
    let stmt = cache.get(sql);
    if (stmt) {
      cache.delete(sql);
    } else {
      stmt = raw.prepare(sql);
      if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, stmt);
    return stmt;
  };
}

export function openSqlite(path: string): SqliteDatabase & { raw: DatabaseSync } {
  const raw = new DatabaseSync(path);
  // WAL lets readers (GET polls) proceed while a worker writes results; busy_timeout rides out
  // the short write locks of a second process (a CLI `keys create` against a running server).
  raw.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;',
  );
  const prepared = statementCache(raw);
  return {
    raw,
    close: () => raw.close(),
    prepare: (sql: string) => new NodeSqliteStatement(prepared(sql), () => raw.prepare(sql)),
  };
}
