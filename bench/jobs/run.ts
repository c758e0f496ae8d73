/**
 * bench/jobs: what the async job machinery costs and how it scales, against baselines measured
 * in the same run.
 *
 * Items are scrapes of a CPU-light fixture page (plain text: no HTML conversion), so what is
 * measured is the job machinery rather than the content pipeline.
 *
 * 1. Queue overhead per item: ITEMS scrapes run as one async job (stored,
 *    queued, claimed, recorded with their charges) against the same scrapes called directly
 *    (with their ledger write), both at the same concurrency, on SQLite and on Postgres.
 * 2. Throughput of 1 against 2 `webdata worker` processes on Postgres for the same items.
 *
 *   npm run bench:jobs     (ITEMS=200, ROUNDS=3, CONCURRENCY=8 by default; needs the test Postgres)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { pino } from 'pino';
import { Meter } from '../../src/billing/index.ts';
import { createServices } from '../../src/cli/server.ts';
import { loadConfig } from '../../src/config.ts';
import type { Jobs } from '../../src/jobs/index.ts';
import { scrape, type ScrapeInput } from '../../src/ops/index.ts';
import { startFixtureSite } from '../../test/fixtures/site/server.ts';
import { createTestDatabase } from '../../test/helpers/postgres.ts';

const ITEMS = Number(process.env.ITEMS ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
process.env.WEBDATA_TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/webdata_test';

const log = pino({ level: 'silent' });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

function env(dataDir: string, databaseUrl: string): Record<string, string> {
  return {
    WEBDATA_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
    WEBDATA_CONTENT_WORKERS: '0',
    WEBDATA_JOB_CONCURRENCY: String(CONCURRENCY),
    WEBDATA_LOG_LEVEL: 'silent',
  };
}

async function waitDone(jobs: Jobs, userId: string, id: string): Promise<void> {
  for (;;) {
    const job = await jobs.store.get(userId, id);
    if (job && job.status !== 'pending' && job.status !== 'processing') {
      if (job.completed !== job.total) throw new Error(`job ended ${job.status} with ${job.completed}/${job.total}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function overhead(engine: string, databaseUrl: string, inputs: () => ScrapeInput[]): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'webdata-bench-jobs-'));
  const built = await createServices(loadConfig(env(dataDir, databaseUrl)), 'worker');
  try {
    const { userId } = (await built.keys.create('bench')).info;
    await built.jobs.start(log, built.services);
    const direct: number[] = [];
    const queued: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const limit = pLimit(CONCURRENCY);
      let t0 = performance.now();
      await Promise.all(
        inputs().map((input) =>
          limit(async () => {
            const meter = new Meter(userId);
            const result = await scrape(input, { userId, signal: new AbortController().signal, meter, log, services: built.services });
            if (!result.success) throw new Error(result.error);
            await meter.flush(built.ledger);
          }),
        ),
      );
      direct.push((performance.now() - t0) / ITEMS);
      t0 = performance.now();
      const { job } = await built.jobs.create(userId, 'scrape-batch', inputs());
      await waitDone(built.jobs, userId, job.id);
      queued.push((performance.now() - t0) / ITEMS);
    }
    const d = median(direct);
    const q = median(queued);
    console.log(
      `${engine.padEnd(8)} direct ${fmt(d)}/item   as a job ${fmt(q)}/item   overhead ${fmt(q - d)}/item   job/direct ${(q / d).toFixed(2)}x`,
    );
    return q / d;
  } finally {
    await built.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function startWorker(databaseUrl: string): Promise<() => Promise<void>> {
  const proc = spawn(join(root, 'node_modules/.bin/node'), ['src/cli/main.ts', 'worker'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env(tmpdir(), databaseUrl), WEBDATA_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('running job items')) resolve(stop);
    });
    proc.once('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)));
  });
}

async function throughput(workers: number, inputs: () => ScrapeInput[]): Promise<number> {
  const pg = await createTestDatabase();
  const built = await createServices(loadConfig(env(tmpdir(), pg.url)), 'worker');
  const stops: Array<() => Promise<void>> = [];
  try {
    const { userId } = (await built.keys.create('bench')).info;
    await built.jobs.start(log);
    for (let i = 0; i < workers; i++) stops.push(await startWorker(pg.url));
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const t0 = performance.now();
      const { job } = await built.jobs.create(userId, 'scrape-batch', inputs());
      await waitDone(built.jobs, userId, job.id);
      rates.push(ITEMS / ((performance.now() - t0) / 1000));
    }
    const rate = median(rates);
    console.log(`${workers} worker${workers > 1 ? 's' : ' '}  ${rate.toFixed(0)} items/s`);
    return rate;
  } finally {
    await Promise.all(stops.map((s) => s()));
    await built.close();
    await pg.drop();
  }
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = await startFixtureSite();
let round = 0;
// A fresh query string per item so nothing along the way can serve a repeat.
const inputs = () => Array.from({ length: ITEMS }, (_, i) => ({ url: `${site.origin}/notes.txt?r=${round++}&i=${i}` }));
try {
  console.log(`bench/jobs: ${ITEMS} scrapes of a plain-text fixture page, concurrency ${CONCURRENCY}, median of ${ROUNDS} rounds\n`);
  console.log('Queue overhead per item (same process, same concurrency):');
  await overhead('sqlite', '', inputs);
  const pg = await createTestDatabase();
  try {
    await overhead('postgres', pg.url, inputs);
  } finally {
    await pg.drop();
  }
  console.log('\nThroughput on Postgres, `webdata worker` processes:');
  const one = await throughput(1, inputs);
  const two = await throughput(2, inputs);
  console.log(`2 workers / 1 worker: ${(two / one).toFixed(2)}x`);
} finally {
  await site.close();
}
