/**
 * Browser bench: each figure against a bare playwright-core baseline measured in the same run on
 * an identically launched browser (same executable, same flags, same egress proxy).
 *
 *   node bench/browser/run.ts [iterations]
 *
 * - scrape of a page whose article its script writes (HTTP probe, escalation, pool, fresh
 *   context, settle, conversion) through POST /v1/scrape/single vs bare newContext + goto + content;
 * - the same scrape on the browser-firefox rung (method: browser-firefox) vs bare Playwright on
 *   the same Firefox over WebDriver BiDi, and against the headless Chromium rung's API time;
 * - screenshot (full page) and PDF through the API vs bare page.screenshot / page.pdf;
 * - 20 such scrapes at once, pages/s, against the bare browser with 20 contexts at once;
 * - pool memory: PSS (/proc/<pid>/smaps_rollup) summed over every browser process, idle and
 *   with 10 requests in flight.
 */
import { type Browser, chromium, firefox } from 'playwright-core';
import {
  FIREFOX_ENV,
  firefoxPrefs,
  processTree,
  pssBytes,
  sharedFlags,
} from '../../src/browser/index.ts';
import { startFixtureSite } from '../../test/fixtures/site/server.ts';
import { startTestServer } from '../../test/helpers/server.ts';

const iterations = Number(process.argv[2] ?? 30);
const warmup = 5;
const CONCURRENCY = 20;
/** Pages per side and round of the concurrent figure. */
const CONCURRENT_PAGES = 60;
const CONCURRENT_ROUNDS = 3;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/**
 * Times the API call and its bare baseline alternately, so load from other processes on the
 * machine falls on both alike; prints both medians and returns their ratio and the API's median.
 */
async function pair(
  label: string,
  baseline: () => Promise<unknown>,
  viaApi: () => Promise<unknown>,
): Promise<{ ratio: number; apiMs: number }> {
  for (let i = 0; i < warmup; i++) {
    await baseline();
    await viaApi();
  }
  const bareMs: number[] = [];
  const apiMs: number[] = [];
  for (let i = 0; i < iterations; i++) {
    for (const [fn, into] of [
      [baseline, bareMs],
      [viaApi, apiMs],
    ] as const) {
      const t = performance.now();
      await fn();
      into.push(performance.now() - t);
    }
  }
  const ratio = p50(apiMs) / p50(bareMs);
  console.log(
    `${label.padEnd(12)} bare p50 ${p50(bareMs).toFixed(1).padStart(7)} ms   API p50 ${p50(apiMs).toFixed(1).padStart(7)} ms   ratio ${ratio.toFixed(2)}`,
  );
  return { ratio, apiMs: p50(apiMs) };
}

const site = await startFixtureSite();
// Room for the concurrent figure's pages at once, as the bare side has.
const t = await startTestServer({
  WEBDATA_BROWSER_POOL_SIZE: '2',
  WEBDATA_BROWSER_MAX_PAGES: String(CONCURRENCY),
  WEBDATA_BROWSER_WARM: 'true',
  WEBDATA_LOG_LEVEL: 'silent',
});
const engine = t.server.services.browser;
const proxy = engine.proxy;
const bare: Browser = await chromium.launch({
  executablePath: t.server.services.config.chromium.headless,
  args: [...sharedFlags(proxy.url), '--disable-dev-shm-usage', '--no-sandbox'],
});
const bareFirefox: Browser = await firefox.launch({
  channel: 'moz-firefox',
  executablePath: t.server.services.config.firefox.firefox,
  env: { ...process.env, ...FIREFOX_ENV },
  firefoxUserPrefs: firefoxPrefs(proxy.url),
});

const jsPage = `${site.origin}/browser/js-article`;
const tallPage = `${site.origin}/browser/tall`;
const printPage = `${site.origin}/browser/print`;

async function api(path: string, body: unknown): Promise<void> {
  const { json } = await t.api('POST', path, body);
  if (!json.success) throw new Error(`${path} failed: ${JSON.stringify(json)}`);
}

async function barePage<T>(
  viewport: { width: number; height: number },
  fn: (page: import('playwright-core').Page) => Promise<T>,
  on: Browser = bare,
): Promise<T> {
  const context = await on.newContext({ viewport });
  try {
    return await fn(await context.newPage());
  } finally {
    await context.close();
  }
}

const bareScrape = (url: string, on: Browser = bare) =>
  barePage(
    { width: 1280, height: 800 },
    async (page) => {
      await page.goto(url, { waitUntil: 'load' });
      await page.content();
    },
    on,
  );

/** Pages per second of `pages` calls of `fn`, `CONCURRENCY` at a time. */
async function pagesPerSecond(fn: (n: number) => Promise<unknown>, pages: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < pages) await fn(next++);
    }),
  );
  return pages / ((performance.now() - started) / 1000);
}

console.log(
  `browser bench: ${iterations} iterations after ${warmup} warm-up, bare and API alternating`,
);
const { ratio: scrapeRatio, apiMs: chromiumScrapeMs } = await pair(
  'scrape (JS)',
  () => bareScrape(jsPage),
  () => api('/api/v1/scrape/single', { url: jsPage }),
);
const { ratio: firefoxRatio, apiMs: firefoxScrapeMs } = await pair(
  'firefox rung',
  () => bareScrape(jsPage, bareFirefox),
  () => api('/api/v1/scrape/single', { url: jsPage, method: 'browser-firefox' }),
);
console.log(
  `firefox rung over the headless rung, API p50: ${(firefoxScrapeMs / chromiumScrapeMs).toFixed(2)}`,
);
await pair(
  'screenshot',
  () =>
    barePage({ width: 1920, height: 1080 }, async (page) => {
      await page.goto(tallPage, { waitUntil: 'load' });
      await page.screenshot({ fullPage: true, type: 'png' });
    }),
  () => api('/api/v1/screenshot', { url: tallPage }),
);
const { ratio: pdfRatio } = await pair(
  'pdf (URL)',
  () =>
    barePage({ width: 1280, height: 800 }, async (page) => {
      await page.goto(printPage, { waitUntil: 'load' });
      await page.pdf({ format: 'A4', printBackground: true });
    }),
  () => api('/api/v1/pdf/url', { url: printPage }),
);

// Alternating rounds, so load from other processes falls on both sides; a distinct URL per page.
const concurrent = { bare: [] as number[], api: [] as number[] };
await pagesPerSecond((n) => bareScrape(`${jsPage}?n=${n}`), CONCURRENCY);
await pagesPerSecond((n) => api('/api/v1/scrape/single', { url: `${jsPage}?n=${n}` }), CONCURRENCY);
for (let round = 0; round < CONCURRENT_ROUNDS; round++) {
  concurrent.bare.push(
    await pagesPerSecond((n) => bareScrape(`${jsPage}?n=${n}`), CONCURRENT_PAGES),
  );
  concurrent.api.push(
    await pagesPerSecond(
      (n) => api('/api/v1/scrape/single', { url: `${jsPage}?n=${n}` }),
      CONCURRENT_PAGES,
    ),
  );
}
const concurrentRatio = p50(concurrent.api) / p50(concurrent.bare);
console.log(
  `${CONCURRENCY} at once  bare ${p50(concurrent.bare).toFixed(1).padStart(6)} pages/s   API ${p50(concurrent.api).toFixed(1).padStart(6)} pages/s   ratio ${concurrentRatio.toFixed(2)} (median of ${CONCURRENT_ROUNDS} rounds of ${CONCURRENT_PAGES})`,
);

const poolPss = () =>
  engine
    .pids('browser')
    .flatMap(({ pid }) => processTree(pid))
    .reduce((sum, pid) => sum + pssBytes(pid), 0);
await new Promise((r) => setTimeout(r, 1000));
console.log(`pool PSS idle (${engine.pids('browser').length} browsers): ${mb(poolPss())} MB`);
const inflight = Array.from({ length: 10 }, (_, n) =>
  t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/browser/slow-js?n=${n}&ms=2500` }),
);
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, poolPss())), 200);
const done = await Promise.all(inflight);
clearInterval(sampler);
console.log(
  `pool PSS with 10 concurrent requests: peak ${mb(peak)} MB (${done.filter((r) => r.json.success).length}/10 succeeded)`,
);

await bare.close();
await bareFirefox.close();
await t.close();
await site.close();
console.log(
  `RESULT js_scrape_p50_ratio=${scrapeRatio.toFixed(3)} firefox_scrape_p50_ratio=${firefoxRatio.toFixed(3)} firefox_vs_headless_api=${(firefoxScrapeMs / chromiumScrapeMs).toFixed(3)} pdf_p50_ratio=${pdfRatio.toFixed(3)} concurrent20_ratio=${concurrentRatio.toFixed(3)}`,
);
