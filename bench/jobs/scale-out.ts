import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServices } from '../../src/cli/server.ts';
import { loadConfig } from '../../src/config.ts';
import type { ScrapeInput } from '../../src/ops/index.ts';
import { createTestDatabase } from '../../test/helpers/postgres.ts';
import { env, log, median, waitDone } from './common.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function startWorker(databaseUrl: string, concurrency: number): Promise<() => Promise<void>> {
  const proc = spawn(join(root, 'node_modules/.bin/node'), ['src/cli/main.ts', 'worker'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      ...env(tmpdir(), databaseUrl, concurrency),
      WEBDATA_LOG_LEVEL: 'info',
    },
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

/**
 * Items per second of one job run by `workers` `webdata worker` processes on a fresh Postgres
 * (median of `rounds` jobs, after a warm-up job), timed from the job's creation to its last result.
 */
export async function throughput(
  workers: number,
  inputs: () => ScrapeInput[],
  opts: { rounds: number; concurrency: number; warmUp: () => ScrapeInput[]; warmedUp?: () => void },
): Promise<number> {
  const pg = await createTestDatabase();
  const built = await createServices(loadConfig(env(tmpdir(), pg.url, opts.concurrency)), 'worker');
  const stops: Array<() => Promise<void>> = [];
  try {
    const { userId } = (await built.keys.create('bench')).info;
    await built.jobs.start(log);
    stops.push(
      ...(await Promise.all(
        Array.from({ length: workers }, () => startWorker(pg.url, opts.concurrency)),
      )),
    );
    // Each worker loads the code a page needs on its first items; that is start-up, not throughput.
    const warm = await built.jobs.create(
      userId,
      'scrape-batch',
      Array.from({ length: workers }, opts.warmUp).flat(),
    );
    await waitDone(built.jobs, userId, warm.job.id);
    opts.warmedUp?.();
    const rates: number[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      const items = inputs();
      const t0 = performance.now();
      const { job } = await built.jobs.create(userId, 'scrape-batch', items);
      await waitDone(built.jobs, userId, job.id);
      rates.push(items.length / ((performance.now() - t0) / 1000));
    }
    const rate = median(rates);
    console.log(
      `${workers} worker${workers > 1 ? 's' : ' '}  ${rate.toFixed(1)} items/s   (rounds: ${rates.map((r) => r.toFixed(1)).join(', ')})`,
    );
    return rate;
  } finally {
    await Promise.all(stops.map((s) => s()));
    await built.close();
    await pg.drop();
  }
}
