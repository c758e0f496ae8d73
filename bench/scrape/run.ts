/**
 * Scrape latency and throughput through the real server against doing the work by hand.
 *
 *   node bench/scrape/run.ts [--pages N] [--rounds N] [--workers N]
 *
 * A loopback fixture site serves real pages from the article-extraction data set. We measure
 * - p50 of POST /api/v1/scrape/single against a raw undici GET plus convertHtml in this process;
 * - pages/s of one 30-URL POST /api/v1/scrape/batch against convertHtml's single-thread rate
 *   (the server converts on its worker pool, so the batch should beat one thread).
 */
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startServer } from '../../src/cli/server.ts';
import { loadConfig } from '../../src/config.ts';
import { convertHtml } from '../../src/content/index.ts';
import { loadArticleExtraction } from '../extraction/data.ts';

const { values: args } = parseArgs({ options: { pages: { type: 'string' }, rounds: { type: 'string' }, workers: { type: 'string' } } });
const pageCount = Number(args.pages ?? 12);
const rounds = Number(args.rounds ?? 5);
const workers = String(Number(args.workers ?? availableParallelism()));
const BATCH = 30;
const KEY = 'wd_bench_key_0123456789abcdef';

const pages = loadArticleExtraction(pageCount).map((p) => p.html);

const site = createServer((req, res) => {
  const i = Number(/^\/p\/(\d+)\.html$/.exec(req.url ?? '')?.[1] ?? -1);
  if (!(i >= 0 && i < pages.length)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[i]);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
const urls = pages.map((_, i) => `${origin}/p/${i}.html`);

const dataDir = await mkdtemp(join(tmpdir(), 'webdata-bench-'));
const server = await startServer(
  loadConfig({ PORT: '0', HOST: '127.0.0.1', WEBDATA_DATA_DIR: dataDir, WEBDATA_API_KEYS: KEY, WEBDATA_ALLOW_PRIVATE_NETWORK: 'true', WEBDATA_CONTENT_WORKERS: workers }),
  { logLevel: 'silent' },
);

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

async function timeEach(fn: (url: string) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const url of urls) {
      const t0 = performance.now();
      await fn(url);
      times.push(performance.now() - t0);
    }
  }
  return times;
}

try {
  // Warm both paths: JIT, worker threads, keep-alive connections.
  for (const url of urls) {
    await direct(url);
    const r = await api('/api/v1/scrape/single', { url });
    if (!r.success) throw new Error(`warm-up scrape failed: ${r.error}`);
  }

  const directTimes = await timeEach(direct);
  const apiTimes = await timeEach((url) => api('/api/v1/scrape/single', { url }));
  const directP50 = p50(directTimes);
  const apiP50 = p50(apiTimes);
  console.log(`single (${urls.length} pages x ${rounds}): p50 direct undici+convert ${directP50.toFixed(1)} ms, /v1/scrape/single ${apiP50.toFixed(1)} ms, ratio ${(apiP50 / directP50).toFixed(2)}x`);

  const batchUrls = Array.from({ length: BATCH }, (_, i) => urls[i % urls.length]!);
  const htmls = Array.from({ length: BATCH }, (_, i) => pages[i % pages.length]!);
  let bestConvert = Infinity;
  let bestBatch = Infinity;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    htmls.forEach((html, i) => {
      convertHtml({ html, url: batchUrls[i]!, format: 'markdown', onlyMainContent: true });
    });
    bestConvert = Math.min(bestConvert, performance.now() - t0);
    const t1 = performance.now();
    const res = await api('/api/v1/scrape/batch', { urls: batchUrls });
    bestBatch = Math.min(bestBatch, performance.now() - t1);
    if (res.successful !== BATCH) throw new Error(`batch: ${res.failed} failed`);
  }
  const convertRate = (BATCH * 1000) / bestConvert;
  const batchRate = (BATCH * 1000) / bestBatch;
  console.log(
    `batch of ${BATCH} (best of 3, ${workers} content workers, ${availableParallelism()} cores): /v1/scrape/batch ${batchRate.toFixed(1)} pages/s, single-thread convertHtml ${convertRate.toFixed(1)} pages/s, ratio ${(batchRate / convertRate).toFixed(2)}x`,
  );
} finally {
  await server.close();
  site.close();
  await rm(dataDir, { recursive: true, force: true });
}
