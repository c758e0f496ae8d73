/**
 * Fairness between keys, lane by lane: how long key B's first item takes while key A saturates
 * the lane, against B alone on the same server in the same run. Lanes: job items, webhook
 * deliveries, crawl pacing of one host, browser pages, OCR pages. Ratios near 1 mean A's backlog
 * costs B about one item's time at most; the goal is <= 2. Ends with one `RESULT` line.
 *
 *   npm run bench:fairness
 */
import { blankPdf, servePdf } from '../../test/fixtures/blank-pdf.ts';
import { startCrawlSite } from '../../test/fixtures/crawl-site.ts';
import { startFixtureSite } from '../../test/fixtures/site/server.ts';
import { slowTextRoute, type Window } from '../../test/fixtures/slow-origin.ts';
import { startWebhookReceiver } from '../../test/fixtures/webhook-receiver.ts';
import { startBenchServer } from '../bench-server.ts';

const A = 'wd_bench_key_fairness_user_a_0123456789';
const B = 'wd_bench_key_fairness_user_b_0123456789';

const windows: Window[] = [];
const site = await startFixtureSite({
  '/slow-origin/*': slowTextRoute(windows),
  '/many.pdf': servePdf(blankPdf(100, 400)),
  '/one.pdf': servePdf(blankPdf(1, 400)),
});
const crawlSite = await startCrawlSite({
  generated: [{ host: 'shared.bench', pages: 200, fanout: 10, sitemap: false }],
});
const silent = await startWebhookReceiver();
silent.respond = () => new Promise<number>(() => undefined);
const answering = await startWebhookReceiver();
const server = await startBenchServer(A, {
  WEBDATA_API_KEYS: `${A},${B}`,
  WEBDATA_TEST_RESOLVE: crawlSite.hosts.map((h) => `${h}=127.0.0.1`).join(','),
  WEBDATA_JOB_CONCURRENCY: '8',
  WEBDATA_WEBHOOK_TIMEOUT_MS: '30000',
  WEBDATA_OCR_CONCURRENCY: '1',
});

async function api(key: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(new URL(path, server.address), {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    const got = await probe();
    if (got) return got;
    await sleep(50);
  }
}

async function jobDone(key: string, url: string): Promise<void> {
  await until(async () => {
    const { json } = await api(key, 'GET', url);
    return ['completed', 'failed', 'cancelled'].includes(json.status) || undefined;
  });
}

/** Milliseconds `work` takes. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

interface Lane {
  name: string;
  /** B's first item, start to end. */
  first(round: number): Promise<unknown>;
  /** Puts A's load on the lane; the answer takes it off. */
  saturate(): Promise<() => Promise<void>>;
}

let seq = 0;
const lanes: Lane[] = [
  {
    name: 'jobs',
    first: async () => {
      const created = await api(B, 'POST', '/api/v1/scrape/async/single', {
        url: `${site.origin}/slow-origin/b-${seq++}?ms=1000`,
      });
      await jobDone(B, created.json.url);
    },
    saturate: async () => {
      const urls: string[] = [];
      for (let batch = 0; batch < 4; batch++) {
        const created = await api(A, 'POST', '/api/v1/scrape/async/batch', {
          urls: Array.from({ length: 30 }, () => `${site.origin}/slow-origin/a-${seq++}?ms=1000`),
        });
        urls.push(created.json.url);
      }
      await sleep(1500);
      return async () => {
        for (const url of urls) await api(A, 'DELETE', url);
      };
    },
  },
  {
    name: 'webhooks',
    first: async () => {
      const created = await api(B, 'POST', '/api/v1/scrape/async/single', {
        url: `${site.origin}/slow-origin/b-${seq++}?ms=5`,
        webhook: { url: answering.url, events: ['completed'] },
      });
      await until(() =>
        answering.received.find((d) => JSON.parse(d.body).jobId === created.json.id),
      );
    },
    saturate: async () => {
      const urls: string[] = [];
      for (let batch = 0; batch < 2; batch++) {
        const created = await api(A, 'POST', '/api/v1/scrape/async/batch', {
          urls: Array.from({ length: 20 }, () => `${site.origin}/slow-origin/a-${seq++}?ms=5`),
          webhook: { url: silent.url },
        });
        urls.push(created.json.url);
      }
      for (const url of urls) await jobDone(A, url);
      await sleep(500);
      return async () => undefined;
    },
  },
  {
    name: 'crawl',
    first: async (round) => {
      const created = await api(B, 'POST', '/api/v1/crawl', {
        url: crawlSite.url('shared.bench', `/p/${100 + round}`),
        limit: 1,
        sitemap: 'skip',
      });
      await jobDone(B, created.json.url);
    },
    saturate: async () => {
      const created = await api(A, 'POST', '/api/v1/crawl', {
        url: crawlSite.url('shared.bench'),
        limit: 100,
        delayMs: 30_000,
        sitemap: 'skip',
      });
      await until(async () => (await api(A, 'GET', created.json.url)).json.total > 1);
      return async () => void (await api(A, 'DELETE', created.json.url));
    },
  },
  {
    name: 'browser',
    first: () =>
      api(B, 'POST', '/api/v1/scrape/single', {
        url: `${site.origin}/browser/slow-js?n=${seq++}&ms=50`,
      }),
    saturate: async () => {
      const held = Array.from({ length: 10 }, () =>
        api(A, 'POST', '/api/v1/scrape/single', {
          url: `${site.origin}/browser/slow-js?n=${seq++}&ms=8000`,
        }),
      );
      await until(() => server.services.browser.stats().browser.activePages >= 6 || undefined);
      return async () => void (await Promise.all(held));
    },
  },
  {
    name: 'ocr',
    first: () =>
      api(B, 'POST', '/api/v1/scrape/single', {
        url: `${site.origin}/one.pdf`,
        pdfStrategy: 'ocr',
      }),
    saturate: async () => {
      const ac = new AbortController();
      const held = [0, 1].map(() =>
        fetch(new URL('/api/v1/scrape/single', server.address), {
          method: 'POST',
          headers: { authorization: `Bearer ${A}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `${site.origin}/many.pdf`, pdfStrategy: 'ocr' }),
          signal: ac.signal,
        }).catch(() => undefined),
      );
      await sleep(1500);
      return async () => {
        ac.abort();
        await Promise.all(held);
      };
    },
  },
];

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ratios: Record<string, number> = {};
try {
  for (const lane of lanes) {
    // A first untimed call warms the lane (browser launch, pdf.js, robots.txt).
    await lane.first(0);
    const alone: number[] = [];
    const loaded: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      alone.push(await timed(() => lane.first(round * 2)));
      const stop = await lane.saturate();
      loaded.push(await timed(() => lane.first(round * 2 + 1)));
      await stop();
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    ratios[lane.name] = median(loaded) / median(alone);
    console.log(
      `${lane.name}: B alone ${median(alone).toFixed(0)} ms, B while A saturates ${median(loaded).toFixed(0)} ms ` +
        `(rounds: ${alone.map((x) => x.toFixed(0)).join('/')} vs ${loaded.map((x) => x.toFixed(0)).join('/')})`,
    );
  }
} finally {
  await server.close();
  await Promise.all([site.close(), crawlSite.close(), silent.close(), answering.close()]);
}
console.log(
  `RESULT ${Object.entries(ratios)
    .map(([name, r]) => `${name}_ratio=${r.toFixed(2)}`)
    .join(' ')}`,
);
