import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { Meter } from '../../src/billing/index.ts';
import { createServices } from '../../src/cli/server.ts';
import { loadConfig } from '../../src/config.ts';
import { type ScrapeInput, scrape } from '../../src/ops/index.ts';
import { countPgRoundTrips, type RoundTrips } from '../../test/helpers/pg-round-trips.ts';
import { env, log, median, waitDone } from './common.ts';

export interface Overhead {
  /** Items per second as a job over items per second called directly: the median of each round's pair, run back to back. */
  ratio: number;
  /** Statements sent to Postgres while the job ran, less the bench's own looks at it (Postgres only; the last round). */
  roundTrips?: RoundTrips;
}

/**
 * `items` scrapes run as one async job (stored, queued, claimed, recorded with their charges) in
 * this process, against the same scrapes called directly with their ledger write, both at the
 * same concurrency, in alternating rounds.
 */
export async function overhead(
  engine: string,
  databaseUrl: string,
  inputs: () => ScrapeInput[],
  opts: { items: number; rounds: number; concurrency: number },
): Promise<Overhead> {
  const dataDir = await mkdtemp(join(tmpdir(), 'webdata-bench-jobs-'));
  const built = await createServices(
    loadConfig(env(dataDir, databaseUrl, opts.concurrency)),
    'worker',
  );
  try {
    const { userId } = (await built.keys.create('bench')).info;
    await built.jobs.start(log, built.services);
    const direct: number[] = [];
    const queued: number[] = [];
    let roundTrips: RoundTrips | undefined;
    for (let round = 0; round < opts.rounds; round++) {
      const limit = pLimit(opts.concurrency);
      let t0 = performance.now();
      await Promise.all(
        inputs().map((input) =>
          limit(async () => {
            const meter = new Meter(userId);
            const result = await scrape(input, {
              userId,
              signal: new AbortController().signal,
              meter,
              log,
              services: built.services,
            });
            if (!result.success) throw new Error(result.error);
            await meter.flush(built.ledger);
          }),
        ),
      );
      direct.push((performance.now() - t0) / opts.items);
      const counter = databaseUrl ? countPgRoundTrips() : undefined;
      t0 = performance.now();
      const { job } = await built.jobs.create(userId, 'scrape-batch', inputs());
      const looks = await waitDone(built.jobs, userId, job.id);
      queued.push((performance.now() - t0) / opts.items);
      roundTrips = counter?.stop();
      if (roundTrips) roundTrips.total -= looks;
    }
    const d = median(direct);
    const q = median(queued);
    const ratio = median(direct.map((x, i) => x / queued[i]!));
    const perItem = roundTrips
      ? `   ${(roundTrips.total / opts.items).toFixed(2)} round trips/item`
      : '';
    console.log(
      `${engine.padEnd(8)} direct ${(1000 / d).toFixed(0)} items/s   as a job ${(1000 / q).toFixed(0)} items/s   job/direct ${ratio.toFixed(2)}x${perItem}`,
    );
    return { ratio, roundTrips };
  } finally {
    await built.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
