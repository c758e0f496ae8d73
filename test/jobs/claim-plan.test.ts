import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobStore } from '../../src/jobs/index.ts';
import { openDatabase, type Tables } from '../../src/store/index.ts';
import { openSqlite } from '../../src/store/sqlite-driver.ts';
import { storeJob } from '../helpers/embedded-runner.ts';

/**
 * The embedded runner looks for the oldest active job on every claim. Finished jobs are kept until
 * they expire (a day by default), so a look that read them all grew slower with every job stored:
 * 0.3 ms a claim with 5,000 kept, against 3.5 us reading the active ones alone.
 */
describe('embedded claims with many finished jobs kept', () => {
  let dir: string;
  const statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  let db: Kysely<Tables>;
  let raw: ReturnType<typeof openSqlite>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'webdata-claim-'));
    await (await openDatabase({ databaseUrl: '', dataDir: dir })).close();
    const file = join(dir, 'webdata.sqlite');
    raw = openSqlite(file);
    db = new Kysely<Tables>({
      dialect: new SqliteDialect({ database: openSqlite(file) }),
      log: (event) => {
        if (event.level === 'query') statements.push(event.query);
      },
    });
    const now = Date.now();
    raw.raw.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
      INSERT INTO jobs (id, user_id, type, status, total, completed, cost_micros, created_at, updated_at, expires_at)
      SELECT 'done-' || i, 'u', 'scrape-batch', 'completed', 1, 1, 0, ${now - 60_000} + i, ${now}, ${now + 86_400_000} FROM n`);
  });
  afterAll(async () => {
    await db?.destroy();
    raw?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('claims the active job items reading active jobs alone', async () => {
    const store = new JobStore(db);
    const job = await storeJob(store, 12);
    statements.length = 0;
    const { items } = await store.claimPending(8);
    expect(items.map((i) => [i.jobId, i.index])).toEqual(
      Array.from({ length: 8 }, (_, i) => [job.id, i]),
    );
    const looks = statements.filter((s) => /^select .* from "jobs"/i.test(s.sql));
    expect(looks.length).toBeGreaterThan(0);
    for (const look of looks) {
      const plan = raw.raw
        .prepare(`EXPLAIN QUERY PLAN ${look.sql}`)
        .all(...(look.parameters as Array<string | number>))
        .map((row) => String((row as { detail: string }).detail));
      // Every row of jobs it visits is an active one: a search on the status index.
      expect(plan.filter((d) => /\bj(obs)?\b/.test(d) && !/job_items|\bi\b/.test(d))).toEqual([
        expect.stringMatching(/^SEARCH j USING INDEX jobs_status_created \(status=\?\)$/),
      ]);
    }
  });
});
