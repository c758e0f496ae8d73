import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../src/store/index.ts';
import { createTestDatabase } from './postgres.ts';

export type OpenBackend = () => Promise<{ database: Database; cleanup(): Promise<void> }>;

/** Both store backends, for `describe.each`: a fresh SQLite file and a fresh Postgres database. */
export const storeBackends: Array<[string, OpenBackend]> = [
  [
    'sqlite',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'webdata-store-'));
      const database = await openDatabase({ databaseUrl: '', dataDir: dir });
      return { database, cleanup: () => rm(dir, { recursive: true, force: true }) };
    },
  ],
  [
    'postgres',
    async () => {
      const pg = await createTestDatabase();
      const database = await openDatabase({ databaseUrl: pg.url, dataDir: '' });
      return { database, cleanup: () => pg.drop() };
    },
  ],
];
