/**
 * Scrape latency and throughput through the real server against doing the work by hand.
 *
 *   node bench/scrape/run.ts [--pages N] [--rounds N] [--workers N]
 *
 * A loopback fixture site serves real pages from the article-extraction data set. We measure
 * - p50 of POST /api/v1/scrape/single against a raw undici GET plus convertHtml in this process,
 *   the two called in turn for each page so that load from other work falls on both alike;
 * - pages/s of one 30-URL POST /api/v1/scrape/batch against the same 30 pages fetched and
 *   converted one after the other on one thread (the server converts on its worker pool, so the
 *   batch should beat one thread by about the number of cores); convertHtml's rate alone is
 *   printed too; where the batch's threads spent its wall time (on a CPU, waiting for one, idle)
 *   tells a pipeline that leaves cores idle from a machine whose cores other work holds;
 * - the RSS of an idle `webdata serve` with the embedded defaults, a while after start-up, and
 *   of any processes it started.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { convertHtml } from '../../src/content/index.ts';
import { startBenchServer } from '../bench-server.ts';
import { loadArticleExtraction } from '../main-content/data.ts';
import { servePages } from '../page-site.ts';
import {
  addThreadTimes,
  describeThreadTimes,
  type ThreadTimes,
  threadShares,
  threadSnapshot,
} from '../thread-time.ts';
import { startBareThreads } from './bare-threads.ts';

const { values: args } = parseArgs({
  options: { pages: { type: 'string' }, rounds: { type: 'string' }, workers: { type: 'string' } },
});
const pageCount = Number(args.pages ?? 12);
// 15 rounds: the p50 of 60 scrapes a side moved 1.08-1.29 between runs of the same build minutes
// apart; of 180 a side, 1.17-1.21.
const rounds = Number(args.rounds ?? 15);
const workers = String(Number(args.workers ?? availableParallelism()));
const BATCH = 30;
const WARM_BATCHES = 4;
const KEY = 'wd_bench_key_0123456789abcdef';

const pages = loadArticleExtraction(pageCount).map((p) => p.html);

const site = await servePages(pages);
const { urls } = site;

// Shedding off: on a loaded machine the event loop lags past the bound and requests would get 503s.
const server = await startBenchServer(KEY, {
  WEBDATA_CONTENT_WORKERS: workers,
  WEBDATA_SHED_EVENT_LOOP_DELAY_MS: '0',
});

async function api(path: string, body: unknown): Promise<any> {
  const res = await request(`${server.address}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.body.json()) as any;
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

async function direct(url: string): Promise<string> {
  const res = await request(url);
  const html = await res.body.text();
  return convertHtml({ html, url, format: 'markdown', onlyMainContent: true }).content;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU time of this process (every thread: the server's workers too) per side, in ms. */
const cpu = { direct: 0, api: 0, serial: 0, batch: 0 };

async function timed(fn: () => Promise<unknown>, side?: keyof typeof cpu): Promise<number> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  if (side) cpu[side] += (c.user + c.system) / 1000;
  return ms;
}

/** Both sides on every page, in turns whose order alternates. */
async function timeSingles(): Promise<{ direct: number[]; api: number[] }> {
  const times = { direct: [] as number[], api: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    for (const [i, url] of urls.entries()) {
      const sides = [
        async () => times.direct.push(await timed(() => direct(url), 'direct')),
        async () => times.api.push(await timed(() => api('/api/v1/scrape/single', { url }), 'api')),
      ];
      if ((r + i) % 2) sides.reverse();
      for (const side of sides) await side();
    }
  }
  return times;
}

/** A process's resident set in kB, 0 once it is gone. */
function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Every process below `root`, from /proc. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      parent.set(
        Number(name),
        Number(/\)\s+\S+\s+(\d+)/.exec(readFileSync(`/proc/${name}/stat`, 'utf8'))?.[1]),
      );
    } catch {
      // Gone since the listing.
    }
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const [child, ppid] of parent) {
      if (ppid !== pid) continue;
      found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

/** RSS in MB of a `webdata serve` with the embedded defaults, idle a few seconds after it listens, and of what it started. */
async function idleServeRss(): Promise<{ server: number; children: number; childCount: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'webdata-bench-idle-'));
  const env = { ...process.env, WEBDATA_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1' };
  const child = spawn(process.execPath, ['src/cli/main.ts', 'serve'], {
    cwd: new URL('../../', import.meta.url).pathname,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('webdata listening on')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`webdata serve exited with ${code}`)));
    });
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const kids = descendants(child.pid!);
    const children = kids.reduce((sum, pid) => sum + rssKb(pid), 0);
    return { server: rssKb(child.pid!) / 1024, children: children / 1024, childCount: kids.length };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
  }
}

try {
  // Warm both paths: JIT, worker threads, keep-alive connections.
  for (const url of urls) {
    await direct(url);
    const r = await api('/api/v1/scrape/single', { url });
    if (!r.success) throw new Error(`warm-up scrape failed: ${r.error}`);
  }

  // The batch converts on the pool's threads, each with a V8 of its own that compiles the converter
  // afresh: a few untimed batches bring them to the steady state of a server that has been up a
  // while, as this thread is after the conversions above and below.
  const batchUrls = Array.from({ length: BATCH }, (_, i) => urls[i % urls.length]!);
  for (let r = 0; r < WARM_BATCHES; r++) await api('/api/v1/scrape/batch', { urls: batchUrls });
  const htmls = Array.from({ length: BATCH }, (_, i) => pages[i % pages.length]!);

  const singles = await timeSingles();
  const directP50 = p50(singles.direct);
  const apiP50 = p50(singles.api);
  const singleRatio = apiP50 / directP50;
  console.log(
    `single (${urls.length} pages x ${rounds}, in turns): p50 direct undici+convert ${directP50.toFixed(1)} ms, /v1/scrape/single ${apiP50.toFixed(1)} ms, ratio ${singleRatio.toFixed(2)}x`,
  );
  console.log(
    `  CPU per page (all threads): direct ${(cpu.direct / singles.direct.length).toFixed(1)} ms, API ${(cpu.api / singles.api.length).toFixed(1)} ms, ratio ${(cpu.api / cpu.direct).toFixed(2)}x`,
  );

  let bestConvert = Infinity;
  let bestBare = Infinity;
  let bestSerial = Infinity;
  let bestBatch = Infinity;
  const batchThreads = new Map<string, ThreadTimes>();
  let batchWallMs = 0;
  for (let r = 0; r < 3; r++) {
    bestConvert = Math.min(
      bestConvert,
      await timed(async () => {
        htmls.forEach((html, i) => {
          convertHtml({ html, url: batchUrls[i]!, format: 'markdown', onlyMainContent: true });
        });
      }),
    );
    bestSerial = Math.min(
      bestSerial,
      await timed(async () => {
        for (const url of batchUrls) await direct(url);
      }, 'serial'),
    );
    let res: { successful: number; failed: number } | undefined;
    const before = threadSnapshot();
    const batchMs = await timed(
      async () => (res = await api('/api/v1/scrape/batch', { urls: batchUrls })),
      'batch',
    );
    addThreadTimes(batchThreads, before, threadSnapshot());
    batchWallMs += batchMs;
    bestBatch = Math.min(bestBatch, batchMs);
    if (res?.successful !== BATCH) throw new Error(`batch: ${res?.failed} failed`);
  }
  // After the batches, so that these threads do not count among the batch's in /proc.
  const bare = startBareThreads(htmls, batchUrls, Number(workers));
  for (let r = 0; r < WARM_BATCHES; r++) await bare.round();
  for (let r = 0; r < 3; r++) bestBare = Math.min(bestBare, await bare.round());
  await bare.close();
  const rate = (ms: number) => (BATCH * 1000) / ms;
  const batchSpeedup = rate(bestBatch) / rate(bestSerial);
  const bareSpeedup = rate(bestBare) / rate(bestSerial);
  console.log(
    `batch of ${BATCH} (best of 3, ${workers} content workers, ${availableParallelism()} cores): /v1/scrape/batch ${rate(bestBatch).toFixed(1)} pages/s, ` +
      `single-thread undici+convert ${rate(bestSerial).toFixed(1)} pages/s (ratio ${batchSpeedup.toFixed(2)}x), convertHtml alone ${rate(bestConvert).toFixed(1)} pages/s (ratio ${(rate(bestBatch) / rate(bestConvert)).toFixed(2)}x)`,
  );
  // The single-thread side also uses the second core a little (V8's GC and compiler threads), so
  // on 2 cores even bare threads fall short of 2x: their speedup is the most a batch could reach.
  console.log(
    `  ceiling: ${workers} bare threads converting the same pages (no server, no fetching) ${rate(bestBare).toFixed(1)} pages/s, ${bareSpeedup.toFixed(2)}x the single-thread side; the batch reaches ${(bestBare / bestBatch).toFixed(2)} of it`,
  );

  // Wall-clock pages/s can only beat one thread when the process gets more than one core: with
  // other processes busy (Linux shares CPU between sessions first, whatever their thread counts)
  // it cannot, so the CPU each page cost on each side is printed too: the work the server adds.
  console.log(
    `  CPU per page (all threads): single-thread ${(cpu.serial / (3 * BATCH)).toFixed(1)} ms, batch ${(cpu.batch / (3 * BATCH)).toFixed(1)} ms, ratio ${(cpu.batch / cpu.serial).toFixed(2)}x; load average ${loadavg()[0]!.toFixed(1)}`,
  );

  const pool = batchThreads.get('WorkerThread');
  const poolShares = pool ? threadShares(pool, batchWallMs) : { wait: 0, idle: 0 };
  console.log(
    `  threads over the batches' wall time, on a CPU / waiting for a CPU / idle: ${describeThreadTimes(batchThreads, batchWallMs) || 'not available (no /proc schedstat)'}`,
  );

  const idle = await idleServeRss();
  console.log(
    `idle webdata serve (embedded defaults, 5 s after listening): RSS ${idle.server.toFixed(0)} MB; ${idle.childCount} child processes, ${idle.children.toFixed(0)} MB`,
  );
  console.log(
    `RESULT single_p50_ratio=${singleRatio.toFixed(3)} batch_speedup=${batchSpeedup.toFixed(3)} bare_threads_speedup=${bareSpeedup.toFixed(3)} idle_rss_mb=${idle.server.toFixed(0)} batch_workers_wait_pct=${poolShares.wait.toFixed(0)} batch_workers_idle_pct=${poolShares.idle.toFixed(0)}`,
  );
} finally {
  await server.close();
  site.close();
}
