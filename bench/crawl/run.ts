/**
 * bench/crawl: crawling a generated 5,000-page site on loopback to markdown, ours against
 * Crawlee's CheerioCrawler in the same run, and webhook delivery for a 1,000-item job.
 *
 * The site (test/fixtures/crawl-site.ts) is a tree of PAGES pages of fanout 10 with cycles and
 * duplicate spellings of links, a sitemap, and a robots.txt that disallows every page whose
 * number ends in 7, with Crawl-delay: 0. Both crawlers follow links only, honour robots.txt, run
 * at CONCURRENCY requests at once, and turn each page into markdown with our converter (a
 * ContentThreads of the same size). Each side runs in its own child process so its peak RSS is its
 * own: ours is the whole service (POST /v1/crawl, the job store on SQLite, results recorded with
 * their charges), Crawlee is the crawler with in-memory storage.
 *
 * Webhooks: a 1,000-page crawl with an `item` webhook to a receiver on loopback; p50 latency is
 * from the event's creation (its createdAt, written in the transaction with the result) to its
 * arrival, throughput is arrivals per second. The baseline is the floor: the same 1,000 bodies
 * POSTed by a bare undici client at the deliverer's concurrency.
 *
 *   npm run bench:crawl     (PAGES=5000, CONCURRENCY=16, WORKERS=2 by default)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { request } from 'undici';
import { type CrawlSite, startCrawlSite } from '../../test/fixtures/crawl-site.ts';
import { startWebhookReceiver } from '../../test/fixtures/webhook-receiver.ts';

const PAGES = Number(process.env.PAGES ?? 5000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const WORKERS = Number(process.env.WORKERS ?? 2);
const HOOK_ITEMS = 1000;
const KEY = 'wd_bench_key_0123456789abcdef';
// Pages whose number ends in 7, under every spelling the site links them by (bare, trailing slash,
// with a query): a rule ending in `$` alone would let `/p/17?utm_source=x` through to a crawler
// that does not drop tracking parameters before asking robots.txt.
const ROBOTS =
  'User-agent: *\nDisallow: /p/*7$\nDisallow: /p/*7/$\nDisallow: /p/*7?\nCrawl-delay: 0\n';

interface SideResult {
  /** Pages the crawler handled (Crawlee counts a page again under another spelling of its URL). */
  pages: number;
  /** Distinct pages the site served to it (path without trailing slash, query or fragment). */
  distinct: number;
  requests: number;
  seconds: number;
  peakRssMb: number;
  disallowedFetched: number;
}

const disallowed = (path: string) => /\/p\/\d*7(\/?$|\?)/.test(path);

function serverEnv(dataDir: string, port: number): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    WEBDATA_DATA_DIR: dataDir,
    WEBDATA_API_KEYS: KEY,
    WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
    WEBDATA_CONTENT_WORKERS: String(WORKERS),
    WEBDATA_JOB_CONCURRENCY: String(CONCURRENCY),
    WEBDATA_CRAWL_HOST_CONCURRENCY: String(CONCURRENCY),
    WEBDATA_SESSION_WARM_SPARES: '0',
    WEBDATA_LOG_LEVEL: 'silent',
    WEBDATA_JOB_TTL_SECONDS: '3600',
    // The backlog phase holds deliveries open while the job runs.
    WEBDATA_WEBHOOK_TIMEOUT_MS: '120000',
  };
}

async function startOurServer() {
  const { loadConfig } = await import('../../src/config.ts');
  const { startServer } = await import('../../src/cli/server.ts');
  const { freePort } = await import('../../test/helpers/server.ts');
  const dataDir = await mkdtemp(join(tmpdir(), 'webdata-bench-crawl-'));
  const port = await freePort();
  const config = loadConfig(serverEnv(dataDir, port));
  const server = await startServer(config, { logLevel: 'silent' });
  const base = `http://127.0.0.1:${port}/api`;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await request(base + path, {
      method: method as 'GET',
      headers: {
        authorization: `Bearer ${KEY}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await res.body.json()) as any;
  };
  return {
    api,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitDone(api: (m: string, p: string) => Promise<any>, url: string): Promise<any> {
  for (;;) {
    const job = await api('GET', url.replace(/^\/api/, ''));
    if (['completed', 'failed', 'cancelled'].includes(job.status)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Child: our service crawling the site through its API. */
async function ours(origin: string): Promise<Pick<SideResult, 'pages' | 'seconds' | 'peakRssMb'>> {
  const server = await startOurServer();
  try {
    const t0 = performance.now();
    const created = await server.api('POST', '/v1/crawl', {
      url: `${origin}/`,
      limit: PAGES,
      sitemap: 'skip',
      maxDepth: 100,
    });
    const job = await waitDone(server.api, created.url);
    const seconds = (performance.now() - t0) / 1000;
    // Every result was stored; read one page to be sure they are there.
    const page = await server.api('GET', `${created.url.replace(/^\/api/, '')}?offset=0&limit=5`);
    if (!page.data[0]?.markdown) throw new Error('no markdown in the results');
    return { pages: job.completed, seconds, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  } finally {
    await server.close();
  }
}

/** Child: Crawlee's CheerioCrawler, our markdown conversion per page. */
async function crawlee(
  origin: string,
): Promise<Pick<SideResult, 'pages' | 'seconds' | 'peakRssMb'>> {
  const { CheerioCrawler, Configuration } = await import('@crawlee/cheerio');
  const { ContentThreads } = await import('../../src/content/index.ts');
  const { loadConfig } = await import('../../src/config.ts');
  const c = loadConfig({});
  const pool = new ContentThreads(WORKERS, c.convertTimeoutMs, {
    concurrency: c.ocrConcurrency,
    pageTimeoutMs: c.ocrTimeoutMs,
    budgetMs: c.ocrBudgetMs,
    maxPixels: c.ocrMaxPixels,
  });
  let pages = 0;
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const crawler = new CheerioCrawler(
    {
      maxConcurrency: CONCURRENCY,
      minConcurrency: CONCURRENCY,
      maxRequestsPerCrawl: PAGES,
      respectRobotsTxtFile: true,
      maxRequestRetries: 0,
      requestHandler: async ({ body, request: req, enqueueLinks }) => {
        const out = await pool.convert(
          {
            html: body.toString(),
            url: req.loadedUrl ?? req.url,
            format: 'markdown',
            onlyMainContent: true,
          },
          { key: 'bench' },
        );
        if (!out.content) throw new Error('empty markdown');
        pages++;
        await enqueueLinks({ strategy: 'same-hostname' });
      },
    },
    config,
  );
  const t0 = performance.now();
  await crawler.run([`${origin}/`]);
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  return { pages, seconds, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

/** Child: webhook delivery of 1,000-page crawls' item events, live and as a backlog, and the bare-POST floor. */
async function webhooks(origin: string) {
  const receiver = await startWebhookReceiver();
  const server = await startOurServer();
  const hookedCrawl = async () => {
    const created = await server.api('POST', '/v1/crawl', {
      url: `${origin}/`,
      limit: HOOK_ITEMS,
      sitemap: 'skip',
      maxDepth: 100,
      webhook: { url: receiver.url, events: ['item'] },
    });
    const job = await waitDone(server.api, created.url);
    return { job, doneAt: Date.now() };
  };
  const delivered = async (n: number) => {
    const deadline = Date.now() + 180_000;
    while (receiver.received.filter((d) => d.status === 200).length < n && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    return receiver.received.filter((d) => d.status === 200);
  };
  try {
    // Live: deliveries while the crawl records pages. Latency is from the event's creation (in the
    // transaction with the page) to its arrival at the receiver.
    const live = await hookedCrawl();
    const got = await delivered(live.job.completed);
    const latencies = got
      .map((d) => d.at - Date.parse(JSON.parse(d.body).createdAt))
      .sort((a, b) => a - b);
    const lagMs = Math.max(...got.map((d) => d.at)) - live.doneAt;

    // Backlog: the receiver holds every answer until the crawl finished, then answers at once; the
    // deliverer then drains the outbox as fast as it can.
    receiver.received.length = 0;
    const { promise: open, resolve: release } = Promise.withResolvers<void>();
    receiver.respond = () => open.then(() => 200);
    const backlog = await hookedCrawl();
    const releasedAt = Date.now();
    release();
    const drained = await delivered(backlog.job.completed);
    const drainPerSecond =
      drained.length / ((Math.max(...drained.map((d) => d.answeredAt)) - releasedAt) / 1000);

    // The floor: the same bodies, POSTed straight at the receiver at the deliverer's concurrency (16).
    receiver.respond = () => 200;
    const bodies = got.map((d) => d.body);
    const limit = pLimit(16);
    const t0 = performance.now();
    await Promise.all(
      bodies.map((b) =>
        limit(async () => {
          const res = await request(receiver.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: b,
          });
          await res.body.dump();
        }),
      ),
    );
    const floorPerSecond = bodies.length / ((performance.now() - t0) / 1000);
    return {
      live: got.length,
      p50Ms: latencies[Math.floor(latencies.length / 2)]!,
      p90Ms: latencies[Math.floor(latencies.length * 0.9)]!,
      lagMs,
      backlog: drained.length,
      drainPerSecond,
      floorPerSecond,
    };
  } finally {
    await server.close();
    await receiver.close();
  }
}

function child(mode: string, origin: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), mode, origin], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, CRAWLEE_LOG_LEVEL: 'OFF' },
    });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{"result"'));
      if (code === 0 && line) resolve(JSON.parse(line).result);
      else reject(new Error(`${mode} exited ${code}: ${out.slice(-2000)}`));
    });
  });
}

async function parent(): Promise<void> {
  // Both crawlers reach the site by address, so neither depends on name resolution the other lacks.
  const site: CrawlSite = await startCrawlSite({
    generated: [{ host: '127.0.0.1', pages: PAGES, fanout: 10, robots: ROBOTS, words: 400 }],
  });
  const origin = site.url('127.0.0.1', '');
  const run = async (mode: string): Promise<SideResult> => {
    const from = site.hits.length;
    const r = await child(mode, origin);
    const paths = site.hits
      .slice(from)
      .map((h) => h.path.slice(h.path.indexOf('/')))
      .filter((p) => p === '/' || p.startsWith('/p/'));
    const distinct = new Set(paths.map((p) => p.replace(/[?#].*$/, '').replace(/(.)\/$/, '$1')))
      .size;
    return {
      ...r,
      distinct,
      requests: paths.length,
      disallowedFetched: paths.filter(disallowed).length,
    };
  };
  try {
    const ourSide = await run('ours');
    const theirs = await run('crawlee');
    const hooks = await child('webhooks', origin);
    // Distinct pages per second: a crawler that fetches a page twice under two spellings gets no credit for the second.
    const rate = (r: SideResult) => r.distinct / r.seconds;
    console.log(
      `site: ${PAGES} pages, robots disallows ${Array.from({ length: PAGES }, (_, n) => n).filter((n) => n % 10 === 7).length}; concurrency ${CONCURRENCY}, ${WORKERS} content workers`,
    );
    for (const [name, r] of [
      ['webdata', ourSide],
      ['crawlee', theirs],
    ] as const) {
      console.log(
        `${name.padEnd(8)} ${r.distinct} distinct pages (${r.requests} page requests, ${r.pages} handled) in ${r.seconds.toFixed(1)} s = ${rate(r).toFixed(1)} pages/s, peak RSS ${r.peakRssMb.toFixed(0)} MB, disallowed fetched ${r.disallowedFetched}`,
      );
    }
    console.log(
      `webhooks live: ${hooks.live} item events delivered during a crawl, latency p50 ${hooks.p50Ms} ms, p90 ${hooks.p90Ms} ms, last one ${hooks.lagMs} ms after the job completed`,
    );
    console.log(
      `webhooks backlog: ${hooks.backlog} held events drained at ${hooks.drainPerSecond.toFixed(0)}/s; bare POST floor ${hooks.floorPerSecond.toFixed(0)}/s`,
    );
    console.log(
      `RESULT pages_per_s_ratio=${(rate(ourSide) / rate(theirs)).toFixed(2)} peak_rss_ratio=${(ourSide.peakRssMb / theirs.peakRssMb).toFixed(2)} ours_pages=${ourSide.distinct} crawlee_pages=${theirs.distinct} disallowed_ours=${ourSide.disallowedFetched} disallowed_crawlee=${theirs.disallowedFetched} webhook_p50_ms=${hooks.p50Ms} webhook_drain_per_s=${hooks.drainPerSecond.toFixed(0)} webhook_floor_ratio=${(hooks.drainPerSecond / hooks.floorPerSecond).toFixed(2)}`,
    );
  } finally {
    await site.close();
  }
}

const [mode, origin] = process.argv.slice(2);
if (!mode) await parent();
else {
  const result =
    mode === 'ours'
      ? await ours(origin!)
      : mode === 'crawlee'
        ? await crawlee(origin!)
        : await webhooks(origin!);
  console.log(JSON.stringify({ result }));
  process.exit(0);
}
