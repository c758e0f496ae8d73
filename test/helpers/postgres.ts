import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh Postgres database per test file, on the server named by WEBDATA_TEST_DATABASE_URL
 * (scripts/test.sh sets it; scripts/ensure-postgres.sh starts the server).
 */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.WEBDATA_TEST_DATABASE_URL;
  if (!base) throw new Error('WEBDATA_TEST_DATABASE_URL is not set: run the tests with `npm test`');
  const name = `webdata_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
