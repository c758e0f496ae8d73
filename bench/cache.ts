/**
 * Scrape latency from the page cache against the same page fetched fresh, through the API.
 *
 *   node bench/cache.ts [--pages N] [--rounds N]
 *
 * A loopback site serves real article pages (the article-extraction data set; see
 * bench/main-content/data.ts for where it comes from when absent). Each round scrapes every page
 * fresh (`maxAge: 0`, `storeInCache: false`: no cache work at all, the service as it was before
 * the cache) and cached (`maxAge` of an hour: index read, file read and decompress, no request to
 * the site), in turn and in alternating order so that load from other work falls on both alike.
 * The goal is a cached p50 at most 0.2 of the fresh one. Then, apart, fresh against fresh and
 * stored (`maxAge: 0`: the miss path with its write, which the answer does not wait for).
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startBenchServer } from './bench-server.ts';
import { loadArticleExtraction } from './main-content/data.ts';

const { values: args } = parseArgs({
  options: { pages: { type: 'string' }, rounds: { type: 'string' } },
});
const pageCount = Number(args.pages ?? 12);
const rounds = Number(args.rounds ?? 15);
const KEY = 'wd_bench_key_0123456789abcdef';

const pages = loadArticleExtraction(pageCount).map((p) => p.html);
let siteRequests = 0;
const site = createServer((req, res) => {
  siteRequests++;
  const i = Number(/^\/p\/(\d+)\.html$/.exec(req.url ?? '')?.[1] ?? -1);
  if (!(i >= 0 && i < pages.length)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[i]);
});
site.keepAliveTimeout = 120_000;
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
const urls = pages.map((_, i) => `${origin}/p/${i}.html`);

const server = await startBenchServer(KEY, { WEBDATA_SHED_EVENT_LOOP_DELAY_MS: '0' });

async function scrape(body: Record<string, unknown>): Promise<{ ms: number; json: any }> {
  const started = performance.now();
  const res = await request(`${server.address}/api/v1/scrape/single`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.body.json()) as any;
  const ms = performance.now() - started;
  if (res.statusCode !== 200 || !json.success)
    throw new Error(`scrape ${String(body.url)}: ${res.statusCode} ${JSON.stringify(json)}`);
  return { ms, json };
}

const p50 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

const HOUR = 3_600_000;
const fresh: number[] = [];
const cached: number[] = [];
const freshBeside: number[] = [];
const stored: number[] = [];
const freshOnce = async (url: string) => (await scrape({ url, maxAge: 0, storeInCache: false })).ms;
// Warm-up: the HTTP path, the content workers, and every page's entry stored once.
for (const url of urls) await scrape({ url });
const before = siteRequests;
for (let r = 0; r < rounds; r++) {
  for (const url of urls) {
    const first = r % 2 === 0;
    if (first) fresh.push(await freshOnce(url));
    const { ms, json } = await scrape({ url, maxAge: HOUR });
    if (json.cacheState !== 'hit') throw new Error(`${url}: expected a cache hit`);
    cached.push(ms);
    if (!first) fresh.push(await freshOnce(url));
  }
}
// Apart, so that a lookup never waits for a write under way: what storing adds to a miss.
for (let r = 0; r < rounds; r++) {
  for (const url of urls) {
    const first = r % 2 === 0;
    if (first) freshBeside.push(await freshOnce(url));
    stored.push((await scrape({ url, maxAge: 0 })).ms);
    if (!first) freshBeside.push(await freshOnce(url));
  }
}
const fetched = siteRequests - before;

await server.close();
site.close();

const ratio = p50(cached) / p50(fresh);
console.log(`${pages.length} article pages x ${rounds} rounds, each way`);
console.log(`fresh (no cache work)  p50 ${p50(fresh).toFixed(2)} ms`);
console.log(`cached                 p50 ${p50(cached).toFixed(2)} ms`);
console.log(
  `fresh and stored       p50 ${p50(stored).toFixed(2)} ms (fresh beside it ${p50(freshBeside).toFixed(2)} ms)`,
);
console.log(
  `requests to the site during the rounds: ${fetched} (fresh and stored scrapes: ${fresh.length + freshBeside.length + stored.length})`,
);
console.log(
  `RESULT cached_ratio=${ratio.toFixed(3)} stored_ratio=${(p50(stored) / p50(freshBeside)).toFixed(3)}`,
);
