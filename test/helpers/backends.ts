import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase } from '../../src/store/index.ts';
import { createTestDatabase } from './postgres.ts';

/** Opens a fresh store; closing it also removes its file or drops its database. */
export type OpenBackend = () => Promise<Database>;

/** Both store backends, for `describe.each` with `useFixture(open)`: a fresh SQLite file and a fresh Postgres database. */
export const storeBackends: Array<[string, OpenBackend]> = [
  [
    'sqlite',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'webdata-store-'));
      const database = await openDatabase({ databaseUrl: '', dataDir: dir });
      return {
        ...database,
        close: () => database.close().then(() => rm(dir, { recursive: true, force: true })),
      };
    },
  ],
  [
    'postgres',
    async () => {
      const pg = await createTestDatabase();
      const database = await openDatabase({ databaseUrl: pg.url, dataDir: '' });
      return { ...database, close: () => database.close().then(() => pg.drop()) };
    },
  ],
];
