import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrationProvider } from './migrations.ts';
import type { Tables } from './schema.ts';
import { openSqlite } from './sqlite-driver.ts';

export type Backend = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<Tables>;
  backend: Backend;
  /** Postgres connection string when the backend is Postgres (pg-boss opens its own pool on it). */
  url?: string;
  close(): Promise<void>;
}

// Times are bigint columns holding epoch ms, well inside Number's exact range; without this pg
// hands them back as strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export async function openDatabase(opts: {
  databaseUrl: string;
  dataDir: string;
}): Promise<Database> {
  let db: Kysely<Tables>;
  let backend: Backend;
  if (opts.databaseUrl) {
    backend = 'postgres';
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the server dropped (restart, failover, a dropped database) is discarded by
    // the pool and the next query opens a fresh one; unheard, the event would crash the process.
    pool.on('error', () => undefined);
    db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  } else {
    backend = 'sqlite';
    mkdirSync(opts.dataDir, { recursive: true });
    const file = join(opts.dataDir, 'webdata.sqlite');
    db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: openSqlite(file) }) });
  }
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw error instanceof Error ? error : new Error(String(error));
  }
  return { db, backend, url: opts.databaseUrl || undefined, close: () => db.destroy() };
}
