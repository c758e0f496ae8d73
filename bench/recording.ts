/**
 * Session recording cost: a scripted 20-page session (each page loaded, then scrolled to its end)
 * through a Playwright client on a session with `record: true` and on one without, rounds
 * alternating so load from other work falls on both; p50 page load (goto until the load event)
 * of each, their ratio (goal <= 1.15), and the recording's size per minute of session and per page.
 * The pages are the article-extraction data set's (real sites' DOMs; see bench/README.md), served
 * on loopback with a Content-Security-Policy that keeps the browser from fetching their images,
 * scripts and fonts from elsewhere.
 *
 * With `--browser firefox` the sessions are Firefox ones, driven by Puppeteer over WebDriver BiDi.
 *
 *   node bench/recording.ts [--pages 20] [--rounds 3] [--browser chromium|firefox]
 */
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { freePort } from '../test/helpers/server.ts';
import { startBenchServer } from './bench-server.ts';
import { loadArticleExtraction } from './main-content/data.ts';

const { values: args } = parseArgs({
  options: { pages: { type: 'string' }, rounds: { type: 'string' }, browser: { type: 'string' } },
});
const browserName = args.browser ?? 'chromium';
const pageCount = Number(args.pages ?? 20);
const rounds = Number(args.rounds ?? 3);
const KEY = 'wd_bench_key_recording_0123456789';

const pages = loadArticleExtraction(pageCount).map((p) => p.html);
const site = createServer((req, res) => {
  const i = Number(/^\/p\/(\d+)\.html$/.exec(req.url ?? '')?.[1] ?? -1);
  if (!(i >= 0 && i < pages.length)) return void res.writeHead(404).end();
  res
    .writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'self' data: 'unsafe-inline'",
    })
    .end(pages[i]);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;

// A port of its own: the session's wsUrl is built from the public URL, which port 0 would not name.
const server = await startBenchServer(KEY, { PORT: String(await freePort()) });
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.address}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json() as Promise<any>;
};

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

/** A client's tab: load a URL until its load event, scroll down; then leave. */
interface Tab {
  load(url: string): Promise<unknown>;
  scroll(): Promise<unknown>;
  leave(): Promise<unknown>;
}

async function openTab(wsUrl: string): Promise<Tab> {
  if (browserName === 'firefox') {
    const browser = await puppeteer.connect({
      browserWSEndpoint: wsUrl,
      protocol: 'webDriverBiDi',
    });
    const page = await browser.newPage();
    return {
      load: (url) => page.goto(url, { waitUntil: 'load' }),
      scroll: () => page.mouse.wheel({ deltaY: 4000 }),
      leave: () => browser.disconnect(),
    };
  }
  const browser = await chromium.connectOverCDP(wsUrl);
  const context = browser.contexts()[0]!;
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    load: (url) => page.goto(url, { waitUntil: 'load' }),
    scroll: () => page.mouse.wheel(0, 4000),
    leave: () => browser.close(),
  };
}

/** One scripted session; its page loads in ms, its length and, when recorded, the recording's bytes. */
async function session(record: boolean) {
  const created = await api('POST', '/v1/browser-sandbox/session', {
    record,
    browser: browserName,
  });
  const started = performance.now();
  const tab = await openTab(created.wsUrl);
  const loads: number[] = [];
  for (let i = 0; i < pages.length; i++) {
    const t0 = performance.now();
    await tab.load(`${origin}/p/${i}.html`);
    loads.push(performance.now() - t0);
    await tab.scroll();
    await sleep(100);
  }
  await tab.leave();
  const minutes = (performance.now() - started) / 60_000;
  await api('DELETE', `/v1/browser-sandbox/session/${created.sessionId}`);
  const bytes = record
    ? (await api('GET', `/v1/browser-sandbox/session/${created.sessionId}/recording`)).bytes
    : 0;
  return { loads, minutes, bytes: bytes as number };
}

// One session of each first, unmeasured: the first launch and the first rrweb compile are not the steady state.
await session(false);
await session(true);
const plain: number[] = [];
const recorded: number[] = [];
let bytes = 0;
let minutes = 0;
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [false, true] : [true, false];
  for (const record of order) {
    const s = await session(record);
    (record ? recorded : plain).push(...s.loads);
    if (record) {
      bytes += s.bytes;
      minutes += s.minutes;
    }
  }
}
await server.close();
site.close();

const plainP50 = p50(plain);
const recordedP50 = p50(recorded);
const ratio = recordedP50 / plainP50;
const perMinute = bytes / minutes;
const perPage = bytes / (rounds * pages.length);
const mib = (b: number) => `${(b / (1024 * 1024)).toFixed(2)} MiB`;
console.log(
  `${browserName}: pages ${pages.length}, rounds ${rounds} (each a session with and one without recording)`,
);
console.log(
  `p50 page load: without recording ${plainP50.toFixed(0)} ms, recorded ${recordedP50.toFixed(0)} ms, ratio ${ratio.toFixed(3)} (goal <= 1.15)`,
);
console.log(
  `recording size: ${mib(perMinute)} per minute of session, ${(perPage / 1024).toFixed(0)} KiB per page`,
);
console.log(
  `RESULT browser=${browserName} recording_load_ratio=${ratio.toFixed(3)} p50_plain_ms=${plainP50.toFixed(0)} p50_recorded_ms=${recordedP50.toFixed(0)} bytes_per_min=${perMinute.toFixed(0)} bytes_per_page=${perPage.toFixed(0)}`,
);
