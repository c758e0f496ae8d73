/**
 * bench/monitors: does every tick of many monitors run once, on time, with the checks run by two
 * `webdata worker` processes on one Postgres? The baseline is the schedule itself: each monitor's
 * ticks are its creation time plus whole intervals.
 *
 * URLS monitors of one page each (a plain-text fixture page, distinct per monitor), every
 * INTERVAL seconds, created evenly over the first interval (as monitors made over time are), then
 * left to run for SECONDS. A serving process (API only, WEBDATA_WORKER=false) and the workers
 * all run the scheduler, so the claims compete. Counted over the ticks due before the end (less
 * one interval, for checks still in flight): ticks run once, twice, missed; the drift of each
 * check's claim (its job stored) and of its page's fetch start after its tick.
 *
 *   npm run bench:monitors -- [--urls N] [--seconds N] [--interval N] [--workers N]
 *   (defaults 1000 URLs, 300 s, 30 s, 2 workers; needs the test Postgres on 127.0.0.1:5432)
 */

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFixtureSite } from '../test/fixtures/site/server.ts';
import { createTestDatabase } from '../test/helpers/postgres.ts';
import { startBenchServer } from './bench-server.ts';

const { values } = parseArgs({
  options: {
    urls: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '300' },
    interval: { type: 'string', default: '30' },
    workers: { type: 'string', default: '2' },
  },
});
const URLS = Number(values.urls);
const SECONDS = Number(values.seconds);
const INTERVAL = Number(values.interval);
const WORKERS = Number(values.workers);
const KEY = 'wd_bench_monitors_key_0123456789';
process.env.WEBDATA_TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/webdata_test';

const root = fileURLToPath(new URL('../', import.meta.url));
const settings = {
  WEBDATA_MONITOR_MIN_INTERVAL_SECONDS: String(INTERVAL),
  WEBDATA_MONITORS_PER_KEY: String(URLS),
  WEBDATA_CONTENT_WORKERS: '0',
  WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
};

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

function startWorker(databaseUrl: string) {
  const proc = spawn(join(root, 'node_modules/.bin/node'), ['src/cli/main.ts', 'worker'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      WEBDATA_LOG_LEVEL: 'warn',
      ...settings,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return proc;
}

const site = await startFixtureSite();
const pg = await createTestDatabase();
const server = await startBenchServer(KEY, {
  DATABASE_URL: pg.url,
  WEBDATA_WORKER: 'false',
  // Other work on a shared machine stalls the event loop now and then; shedding would refuse the POSTs.
  WEBDATA_SHED_EVENT_LOOP_DELAY_MS: '0',
  ...settings,
});
const workers = Array.from({ length: WORKERS }, () => startWorker(pg.url));
try {
  const base = `http://127.0.0.1:${new URL(server.address).port}`;
  const post = (body: object) =>
    fetch(`${base}/api/v1/monitors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  console.log(
    `bench/monitors: ${URLS} monitors every ${INTERVAL} s for ${SECONDS} s, ${WORKERS} Postgres workers (and the API process) claiming ticks`,
  );
  await sleep(3_000);
  const started = Date.now();
  for (let n = 0; n < URLS; n++) {
    const at = started + (n * INTERVAL * 1000) / URLS;
    if (at > Date.now()) await sleep(at - Date.now());
    const answer = await post({
      urls: [`${site.origin}/notes.txt?monitor=${n}`],
      schedule: { intervalSeconds: INTERVAL },
      formats: ['markdown'],
    });
    if (answer.status !== 201)
      throw new Error(`POST answered ${answer.status}: ${await answer.text()}`);
  }
  const end = started + SECONDS * 1000;
  while (Date.now() < end) {
    await sleep(Math.min(10_000, end - Date.now()));
    process.stdout.write(`  ${Math.round((Date.now() - started) / 1000)} s\r`);
  }
  const db = server.database.db;
  const monitors = await db.selectFrom('monitors').select(['id', 'created_at']).execute();
  const checks = await db
    .selectFrom('monitor_checks as c')
    .leftJoin('job_items as i', 'i.job_id', 'c.id')
    .select([
      'c.monitor_id',
      'c.scheduled_at',
      'c.started_at',
      'i.started_at as fetched_at',
      'c.status',
    ])
    .execute();
  const counted = end - INTERVAL * 1000;
  const byTick = new Map<string, typeof checks>();
  for (const c of checks) {
    const key = `${c.monitor_id}:${c.scheduled_at}`;
    byTick.set(key, [...(byTick.get(key) ?? []), c]);
  }
  let once = 0;
  let twice = 0;
  let missed = 0;
  let offGrid = 0;
  const step = INTERVAL * 1000;
  for (const m of monitors)
    for (let tick = Number(m.created_at); tick <= counted; tick += step) {
      const runs = byTick.get(`${m.id}:${tick}`)?.length ?? 0;
      if (runs === 1) once++;
      else if (runs > 1) twice++;
      else missed++;
    }
  for (const c of checks)
    if (
      (Number(c.scheduled_at) - Number(monitors.find((m) => m.id === c.monitor_id)!.created_at)) %
        step !==
      0
    )
      offGrid++;
  const inWindow = checks.filter((c) => Number(c.scheduled_at) <= counted);
  const claimDrift = inWindow
    .map((c) => Number(c.started_at) - Number(c.scheduled_at))
    .sort((a, b) => a - b);
  const fetchDrift = inWindow
    .filter((c) => c.fetched_at !== null)
    .map((c) => Number(c.fetched_at) - Number(c.scheduled_at))
    .sort((a, b) => a - b);
  const failed = inWindow.filter((c) => c.status === 'failed').length;
  const s = (ms: number) => (ms / 1000).toFixed(3);
  console.log(`\nTicks due (to ${SECONDS - INTERVAL} s): ${once + twice + missed}`);
  console.log(
    `  run once ${once}, twice or more ${twice}, missed ${missed}, off the grid ${offGrid}, failed checks ${failed}`,
  );
  console.log(
    `  claim drift after the tick: p50 ${s(quantile(claimDrift, 0.5))} s, p95 ${s(quantile(claimDrift, 0.95))} s, max ${s(claimDrift.at(-1) ?? Number.NaN)} s`,
  );
  console.log(
    `  fetch start after the tick: p50 ${s(quantile(fetchDrift, 0.5))} s, p95 ${s(quantile(fetchDrift, 0.95))} s, max ${s(fetchDrift.at(-1) ?? Number.NaN)} s`,
  );
  console.log(
    `RESULT monitors=${URLS} interval_s=${INTERVAL} seconds=${SECONDS} workers=${WORKERS} ticks=${once + twice + missed} once=${once} twice=${twice} missed=${missed} p95_claim_drift_s=${s(quantile(claimDrift, 0.95))} p95_fetch_drift_s=${s(quantile(fetchDrift, 0.95))}`,
  );
} finally {
  for (const w of workers) w.kill('SIGTERM');
  await Promise.all(
    workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once('exit', r)))),
  );
  await server.close();
  await pg.drop();
  await site.close();
}
