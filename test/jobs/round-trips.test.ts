import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSite, startFixtureSite } from '../fixtures/site/server.ts';
import { countPgRoundTrips } from '../helpers/pg-round-trips.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { allPages } from './helpers.ts';

const BATCHES = 4;
const PER_BATCH = 30;
const ITEMS = BATCHES * PER_BATCH;

let site: FixtureSite;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let t: TestServer;
let watcher: pg.Client;

beforeAll(async () => {
  site = await startFixtureSite();
  db = await createTestDatabase();
  t = await startTestServer({ DATABASE_URL: db.url, WEBDATA_JOB_CONCURRENCY: '8' });
  watcher = new pg.Client({ connectionString: db.url });
  await watcher.connect();
});
afterAll(async () => {
  await watcher?.end();
  await t?.close();
  await db?.drop();
  await site?.close();
});

/** Waits for the jobs to end by asking Postgres directly, on a client the count leaves out. */
async function waitDone(ids: string[]): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { rows } = await watcher.query(
      `select count(*)::int as n from jobs where id = any($1) and status in ('completed', 'failed', 'cancelled')`,
      [ids],
    );
    if (rows[0].n === ids.length) return;
    if (Date.now() > deadline) throw new Error('jobs did not end in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('database round trips per job item on Postgres', () => {
  it('are at most 3 per item over jobs started and run through the API: everything the service sends, background work included', {
    timeout: 180_000,
  }, async () => {
    const counter = countPgRoundTrips([watcher]);
    let counted;
    let created;
    try {
      created = await Promise.all(
        Array.from({ length: BATCHES }, (_, b) =>
          t.api('POST', '/api/v1/scrape/async/batch', {
            urls: Array.from(
              { length: PER_BATCH },
              (_, i) => `${site.origin}/notes.txt?rt=${b}-${i}`,
            ),
          }),
        ),
      );
      expect(created.map((c) => c.status)).toEqual(Array(BATCHES).fill(202));
      await waitDone(created.map((c) => c.json.id));
    } finally {
      counted = counter.stop();
    }
    for (const c of created) {
      const { data } = await allPages(t, c.json.url, 100);
      expect(data.length).toBe(PER_BATCH);
      expect(data.every((d: any) => d.success)).toBe(true);
      expect((await t.api('GET', c.json.url)).json).toMatchObject({
        status: 'completed',
        completed: PER_BATCH,
      });
    }
    const perItem = counted.total / ITEMS;
    const worst = [...counted.byStatement].sort((a, b) => b[1] - a[1]).slice(0, 12);
    expect(
      perItem,
      `round trips per item ${perItem.toFixed(2)}; most sent: ${JSON.stringify(worst, null, 1)}`,
    ).toBeLessThanOrEqual(3);
  });
});
