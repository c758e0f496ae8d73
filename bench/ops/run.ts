/**
 * bench/ops: what the operations layer costs a request, against baselines measured in the same run.
 *
 * 1. GET /health on webdata (every global hook runs: request metrics, load shedding, the auth and
 *    in-flight checks that public routes skip) against the same route on a bare Fastify app:
 *    the ceiling of what the instrumentation adds to each request.
 * 2. A /metrics scrape with JOB_ITEMS async job items queued (the queue gauge counts them in the
 *    store) against GET /health on the same server.
 *
 *   npm run bench:ops     (REQUESTS=4000, CONCURRENCY=16, JOB_ITEMS=2000, ROUNDS=3 by default)
 */
import Fastify from 'fastify';
import pLimit from 'p-limit';
import { startFixtureSite } from '../../test/fixtures/site/server.ts';
import { startTestServer } from '../../test/helpers/server.ts';

const REQUESTS = Number(process.env.REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const JOB_ITEMS = Number(process.env.JOB_ITEMS ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Microseconds per request for `count` GETs of `url` at CONCURRENCY, median of ROUNDS. */
async function perRequestUs(
  url: string,
  count: number,
  headers: Record<string, string> = {},
): Promise<number> {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const limit = pLimit(CONCURRENCY);
    const start = performance.now();
    await Promise.all(
      Array.from({ length: count }, () =>
        limit(async () => {
          const res = await fetch(url, { headers });
          if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
          await res.arrayBuffer();
        }),
      ),
    );
    rounds.push(((performance.now() - start) * 1000) / count);
  }
  return median(rounds);
}

const bare = Fastify();
bare.get('/health', async () => ({
  status: 'ok' as const,
  uptimeSeconds: Math.round(process.uptime()),
}));
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
const site = await startFixtureSite();
const t = await startTestServer({ WEBDATA_JOB_CONCURRENCY: '1' });
try {
  console.log(
    `bench/ops: ${REQUESTS} requests at concurrency ${CONCURRENCY}, median of ${ROUNDS} rounds\n`,
  );
  // Warm both up so neither pays for JIT or connection set-up in the measured rounds.
  await perRequestUs(`${bareUrl}/health`, 500);
  await perRequestUs(`${t.base}/health`, 500);
  const bareUs = await perRequestUs(`${bareUrl}/health`, REQUESTS);
  const webdataUs = await perRequestUs(`${t.base}/health`, REQUESTS);
  const overhead = webdataUs / bareUs;
  console.log(
    `GET /health  bare Fastify ${bareUs.toFixed(1)} us/request, webdata ${webdataUs.toFixed(1)} us/request: ${overhead.toFixed(2)}x`,
  );

  // Items that wait on a page that never answers in time: they stay queued while /metrics is read.
  const urls = Array.from({ length: 25 }, (_, i) => `${site.origin}/slow?ms=60000&i=${i}`);
  for (let n = 0; n < JOB_ITEMS / urls.length; n++) {
    const res = await t.api('POST', '/api/v1/scrape/async/batch', { urls });
    if (res.status !== 202)
      throw new Error(`batch answered ${res.status}: ${JSON.stringify(res.json)}`);
  }
  const metricsUs = await perRequestUs(`${t.base}/metrics`, 200);
  const healthUs = await perRequestUs(`${t.base}/health`, 200);
  const scrapeRatio = metricsUs / healthUs;
  console.log(
    `/metrics with ${JOB_ITEMS} job items queued ${(metricsUs / 1000).toFixed(2)} ms/scrape, /health ${(healthUs / 1000).toFixed(3)} ms: ${scrapeRatio.toFixed(1)}x`,
  );
  console.log(
    `RESULT health_overhead=${overhead.toFixed(2)} metrics_ms=${(metricsUs / 1000).toFixed(2)} metrics_vs_health=${scrapeRatio.toFixed(1)}`,
  );
} finally {
  await t.close();
  await site.close();
  await bare.close();
}
