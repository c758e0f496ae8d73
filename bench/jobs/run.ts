/**
 * bench/jobs: what the async job machinery costs and how it scales, against baselines measured
 * in the same run.
 *
 * 1. Queue overhead: ITEMS scrapes of a CPU-light fixture page (plain text: no HTML conversion, so
 *    the job machinery is what is measured) run as one async job, against the same scrapes called
 *    directly with their ledger write, at the same concurrency, on SQLite and on Postgres; on
 *    Postgres, the statements sent per item while the job ran (each one round trip).
 * 2. I/O-bound scale-out: a job of SCALE_ITEMS pages that each take PAGE_MS to answer (a slow
 *    loopback origin), run by 1, 2 and 4 `webdata worker` processes on one Postgres.
 *
 *   npm run bench:jobs   (ITEMS=200 ROUNDS=11 CONCURRENCY=8 SCALE_ITEMS=600 PAGE_MS=300 SCALE_ROUNDS=3;
 *                         needs the test Postgres on 127.0.0.1:5432)
 */

import { startFixtureSite } from '../../test/fixtures/site/server.ts';
import { overlap, slowTextRoute, type Window } from '../../test/fixtures/slow-origin.ts';
import { createTestDatabase } from '../../test/helpers/postgres.ts';
import { overhead } from './overhead.ts';
import { throughput } from './scale-out.ts';

const ITEMS = Number(process.env.ITEMS ?? 200);
// A round of 200 light items takes 50-150 ms, so one round pair says little: the median of 11 does.
const ROUNDS = Number(process.env.ROUNDS ?? 11);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const SCALE_ITEMS = Number(process.env.SCALE_ITEMS ?? 600);
const PAGE_MS = Number(process.env.PAGE_MS ?? 300);
const SCALE_ROUNDS = Number(process.env.SCALE_ROUNDS ?? 3);
process.env.WEBDATA_TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/webdata_test';

const windows: Window[] = [];
const site = await startFixtureSite({ '/slow-origin/*': slowTextRoute(windows) });
let round = 0;
// A fresh query string per item so nothing along the way can serve a repeat.
const inputs = () =>
  Array.from({ length: ITEMS }, (_, i) => ({
    url: `${site.origin}/notes.txt?r=${round++}&i=${i}`,
  }));
const slow = () =>
  Array.from({ length: SCALE_ITEMS }, (_, i) => ({
    url: `${site.origin}/slow-origin/p?ms=${PAGE_MS}&r=${round++}&i=${i}`,
  }));
const warmUp = () =>
  Array.from({ length: 2 * CONCURRENCY }, (_, i) => ({
    url: `${site.origin}/slow-origin/warm?ms=10&r=${round++}&i=${i}`,
  }));
try {
  console.log(
    `bench/jobs: ${ITEMS} scrapes of a plain-text fixture page, concurrency ${CONCURRENCY}, median of ${ROUNDS} rounds\n`,
  );
  console.log('Queue overhead (same process, same concurrency):');
  const sqlite = await overhead('sqlite', '', inputs, {
    items: ITEMS,
    rounds: ROUNDS,
    concurrency: CONCURRENCY,
  });
  const pg = await createTestDatabase();
  let postgres;
  try {
    postgres = await overhead('postgres', pg.url, inputs, {
      items: ITEMS,
      rounds: ROUNDS,
      concurrency: CONCURRENCY,
    });
  } finally {
    await pg.drop();
  }
  const trips = postgres.roundTrips!;
  const roundTrips = trips.total / ITEMS;
  console.log(
    `\nStatements per item on Postgres while the job ran, by kind (${trips.total} for ${ITEMS} items; the kinds include the bench's own looks at the job, select * from jobs, which the total leaves out):`,
  );
  for (const [statement, n] of [...trips.byStatement].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`${(n / ITEMS).toFixed(2).padStart(6)}  ${statement}`);

  console.log(
    `\nI/O-bound scale-out on Postgres: ${SCALE_ITEMS} pages answering in ${PAGE_MS} ms, concurrency ${CONCURRENCY} per worker, median of ${SCALE_ROUNDS}:`,
  );
  const rates: number[] = [];
  for (const workers of [1, 2, 4]) {
    rates.push(
      await throughput(workers, slow, {
        rounds: SCALE_ROUNDS,
        concurrency: CONCURRENCY,
        warmUp,
        warmedUp: () => (windows.length = 0),
      }),
    );
    const { busyMs, sumMs, most } = overlap(windows);
    console.log(
      `          pages in flight: at most ${most}, on average ${(sumMs / busyMs).toFixed(1)} while any was`,
    );
  }
  const [one, two, four] = rates as [number, number, number];
  console.log(
    `2 workers / 1: ${(two / one).toFixed(2)}x   4 workers / 1: ${(four / one).toFixed(2)}x`,
  );
  console.log(
    `RESULT sqlite_async_ratio=${sqlite.ratio.toFixed(3)} pg_async_ratio=${postgres.ratio.toFixed(3)} pg_round_trips_per_item=${roundTrips.toFixed(2)} scaleout_2x=${(two / one).toFixed(2)} scaleout_4x=${(four / one).toFixed(2)}`,
  );
} finally {
  await site.close();
}
