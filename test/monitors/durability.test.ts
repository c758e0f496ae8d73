import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { embeddedServe, spawnWorker, useCliProcesses } from '../jobs/helpers.ts';
import { checksAtLeast, FAST_MONITORS } from './helpers.ts';

const site = useFixture(() => startFixtureSite());

/** Ticks of a schedule every `stepMs` from the first: each one's index on that grid. */
const gridSteps = (checks: any[], stepMs: number) => {
  const times = checks.map((c) => Date.parse(c.scheduledAt)).sort((a, b) => a - b);
  return times.map((t) => (t - times[0]!) / stepMs);
};

describe('a monitor across kill -9 of the embedded service', () => {
  const data = useFixture(() => tempDir('webdata-monitor-crash-'));
  const running = useCliProcesses();

  it('keeps its schedule: checks go on after the restart on the same grid, none run twice', {
    timeout: 120_000,
  }, async () => {
    const { serve, client } = await embeddedServe(running, {
      WEBDATA_DATA_DIR: data.path,
      ...FAST_MONITORS,
    });
    const first = await serve();
    const made = await client.api('POST', '/api/v1/monitors', {
      urls: [`${site.origin}/article.html`],
      schedule: { intervalSeconds: 2 },
    });
    expect(made.status).toBe(201);
    const id = made.json.monitor.id;
    const before = await checksAtLeast(client, id, 2);
    await first.kill9();
    expect(first.proc.signalCode).toBe('SIGKILL');
    await sleep(3_000);

    await serve();
    const after = await checksAtLeast(client, id, before.length + 3, 45_000);
    const steps = gridSteps(after, 2_000);
    // Every tick on the grid of the first; ticks missed while down are skipped, none repeated.
    expect(steps.every((s) => Number.isInteger(s))).toBe(true);
    expect(new Set(steps).size).toBe(steps.length);
    const restarted = after.filter((c) => !before.some((b: any) => b.id === c.id));
    expect(restarted.length).toBeGreaterThanOrEqual(3);
    expect(after.every((c) => c.status === 'completed')).toBe(true);
  });
});

describe('monitors with two Postgres workers beside the server', () => {
  const t = useServer({ backend: 'postgres', settings: FAST_MONITORS });
  const workers = useCliProcesses();

  it('never runs one tick twice, and misses none', { timeout: 120_000 }, async () => {
    for (let n = 0; n < 2; n++)
      await spawnWorker(workers, t, { ...FAST_MONITORS, WEBDATA_JOB_CONCURRENCY: '4' });
    const ids: string[] = [];
    for (let n = 0; n < 12; n++) {
      const made = await t.api('POST', '/api/v1/monitors', {
        urls: [`${site.origin}/article.html?monitor=${n}`],
        schedule: { intervalSeconds: 2 },
      });
      expect(made.status).toBe(201);
      ids.push(made.json.monitor.id);
    }
    await sleep(14_000);
    for (const id of ids) await t.api('PATCH', `/api/v1/monitors/${id}`, { paused: true });
    const rows = await t.server.database.db
      .selectFrom('monitor_checks')
      .select(['monitor_id', 'scheduled_at', 'started_at'])
      .execute();
    for (const id of ids) {
      const mine = rows.filter((r) => r.monitor_id === id);
      const steps = gridSteps(
        mine.map((r) => ({ scheduledAt: new Date(Number(r.scheduled_at)).toISOString() })),
        2_000,
      );
      expect(mine.length).toBeGreaterThanOrEqual(5);
      expect(new Set(steps).size).toBe(steps.length);
      expect(steps).toEqual(steps.map((_, i) => i));
    }
    // Each check's job ran its page once, whichever of the three processes took it.
    const jobs = await t.server.database.db
      .selectFrom('job_items')
      .select(['job_id', 'state'])
      .where(
        'job_id',
        'in',
        (await t.server.database.db.selectFrom('monitor_checks').select('id').execute()).map(
          (r) => r.id,
        ),
      )
      .execute();
    expect(jobs.length).toBe(rows.length);
  });
});
