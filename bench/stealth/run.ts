/**
 * Stealth bench: the open-source bot detectors of test/fixtures/vendor/bot-detectors, served from
 * loopback, against each browser rung of the service (a scrape through POST /api/v1/scrape/single
 * with the rung forced, browser-firefox included) and, in the same run, against bare playwright-core and patchright-core
 * driving the same Chromium through the same egress proxy.
 *
 *   node bench/stealth/run.ts
 *
 * A scrape names its rung in `method` (a wait action gives the detectors time after load); the
 * answer's `method` is checked to be the rung meant. The bare drivers: playwright-core as a
 * user starts it (headless shell, default options), patchright-core as its authors advise (headful
 * Chromium on Xvfb, `viewport: null`). A detector passes when it caught nothing (see
 * test/fixtures/site/routes/bot-detectors.ts).
 *
 * Then each runner opens the fingerprint-worlds page as seen from Germany (the API with
 * `proxy: { country: 'de' }` through a stand-in geo proxy; the bare drivers with the `locale` and
 * `timezoneId` a user would give them) and counts the page's other worlds (iframe, two dedicated
 * workers, a service worker, a shared worker) that agree with it on user agent, brands,
 * languages, locale, zone and WebGL renderer, the page itself German.
 */
import { chromium as patchright } from 'patchright-core';
import { type Browser, type BrowserType, chromium as playwright } from 'playwright-core';
import { sharedFlags, startXvfb } from '../../src/browser/index.ts';
import { startGeoProxyProvider } from '../../test/fixtures/geo-proxy-provider.ts';
import {
  BOT_DETECTORS,
  type BotDetector,
  type DetectorVerdict,
  detectorUrl,
  verdictIn,
  type WorldsReport,
  worldsIn,
} from '../../test/fixtures/site/routes/bot-detectors.ts';
import { startFixtureSite } from '../../test/fixtures/site/server.ts';
import { startTestServer } from '../../test/helpers/server.ts';

/** Time the detectors get after load before their verdict is read (they write it at 1.5 s). */
const SETTLE_MS = 2500;

type Runner = 'stealth' | 'headless' | 'firefox' | 'playwright' | 'patchright';
const RUNNERS: Runner[] = ['stealth', 'headless', 'firefox', 'playwright', 'patchright'];
/** The service's rung each API runner forces. */
const RUNG = {
  stealth: 'browser-stealth',
  headless: 'browser',
  firefox: 'browser-firefox',
} as const;

const site = await startFixtureSite();
const provider = await startGeoProxyProvider(['DE']);
const t = await startTestServer({
  WEBDATA_BROWSER_POOL_SIZE: '1',
  WEBDATA_LOG_LEVEL: 'silent',
  WEBDATA_PROXY_URLS: `DE=${provider.urls.DE}`,
});
const config = t.server.services.config;

async function viaApi(detector: BotDetector, rung: (typeof RUNG)[keyof typeof RUNG]) {
  const { json } = await t.api('POST', '/api/v1/scrape/single', {
    url: detectorUrl(site.origin, detector),
    method: rung,
    formats: ['rawHtml'],
    actions: [{ type: 'wait', milliseconds: SETTLE_MS }],
  });
  if (!json.success) return { error: String(json.error) };
  if (json.method !== rung) return { error: `answered by ${json.method}, not ${rung}` };
  return verdictIn(json.rawHtml) ?? { error: 'no verdict in the page' };
}

// The service's egress proxy starts with its first page; the bare drivers go through it too.
await viaApi('botd', 'browser');
const proxyArgs = [...sharedFlags(t.server.services.browser.proxy.url), '--no-sandbox'];
const xvfb = await startXvfb();

async function bareBrowser(runner: 'playwright' | 'patchright'): Promise<Browser> {
  if (runner === 'playwright')
    return playwright.launch({ executablePath: config.chromium.headless, args: proxyArgs });
  return (patchright as unknown as BrowserType).launch({
    executablePath: config.chromium.visible,
    headless: false,
    env: { ...process.env, DISPLAY: xvfb.display },
    args: proxyArgs,
  });
}

async function viaBare(browser: Browser, runner: Runner, detector: BotDetector) {
  const context = await browser.newContext(runner === 'patchright' ? { viewport: null } : {});
  try {
    const page = await context.newPage();
    await page.goto(detectorUrl(site.origin, detector), { waitUntil: 'load' });
    await page.waitForTimeout(SETTLE_MS);
    return verdictIn(await page.content()) ?? { error: 'no verdict in the page' };
  } finally {
    await context.close();
  }
}

/** What detectors compare between a page and its other worlds. */
const WORLD_FIELDS = ['userAgent', 'brands', 'languages', 'locale', 'timeZone', 'webglRenderer'];
const OTHER_WORLDS = ['iframe', 'worker', 'blobWorker', 'serviceWorker', 'sharedWorker'] as const;

/** The worlds report of a page asked for from Germany: through the API, or a bare driver told so. */
async function worldsOf(runner: Runner, browser: Browser | undefined) {
  const url = `${site.origin}/fingerprint-worlds`;
  if (!browser) {
    const { json } = await t.api('POST', '/api/v1/scrape/single', {
      url,
      method: RUNG[runner as keyof typeof RUNG],
      proxy: { country: 'de' },
      formats: ['rawHtml'],
      actions: [{ type: 'wait', milliseconds: SETTLE_MS }],
    });
    return json.success ? worldsIn(json.rawHtml) : undefined;
  }
  // What a user of the bare driver would write to be seen from Germany.
  const context = await browser.newContext({
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    ...(runner === 'patchright' ? { viewport: null } : {}),
  });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(SETTLE_MS);
    return worldsIn(await page.content());
  } finally {
    await context.close();
  }
}

/** The worlds that tell the page's story on every compared field, and the fields that differ. */
function agreement(report: WorldsReport | undefined): { agree: number; differ: string[] } {
  if (!report) return { agree: 0, differ: ['no report'] };
  const differ: string[] = [];
  let agree = 0;
  for (const world of OTHER_WORLDS) {
    const wrong = WORLD_FIELDS.filter(
      (f) => JSON.stringify(report[world][f]) !== JSON.stringify(report.main[f]),
    );
    if (wrong.length === 0) agree++;
    else differ.push(`${world}: ${wrong.join(',')}`);
  }
  const german = report.main.locale === 'de-DE' && report.main.timeZone === 'Europe/Berlin';
  if (!german) differ.push(`main: ${report.main.locale} ${report.main.timeZone}`);
  return { agree: german ? agree : 0, differ };
}

const worlds = new Map<Runner, { agree: number; differ: string[] }>();
const results = new Map<Runner, Map<BotDetector, DetectorVerdict | { error: string }>>();
for (const runner of RUNNERS) {
  const row = new Map<BotDetector, DetectorVerdict | { error: string }>();
  results.set(runner, row);
  const browser =
    runner === 'playwright' || runner === 'patchright' ? await bareBrowser(runner) : undefined;
  for (const detector of BOT_DETECTORS) {
    try {
      row.set(
        detector,
        browser
          ? await viaBare(browser, runner, detector)
          : await viaApi(detector, RUNG[runner as keyof typeof RUNG]),
      );
    } catch (err) {
      row.set(detector, { error: (err as Error).message.split('\n')[0]! });
    }
  }
  worlds.set(runner, agreement(await worldsOf(runner, browser).catch(() => undefined)));
  await browser?.close();
}

const passed = (v: DetectorVerdict | { error: string } | undefined) =>
  !!v && 'pass' in v && v.final && v.pass;
console.log(
  `stealth bench: ${BOT_DETECTORS.length} detectors, verdict read ${SETTLE_MS} ms after load`,
);
for (const runner of RUNNERS) {
  for (const detector of BOT_DETECTORS) {
    const v = results.get(runner)!.get(detector);
    const what =
      !v || 'error' in v
        ? `ERROR ${v?.error ?? ''}`
        : !v.final
          ? 'no final verdict'
          : v.pass
            ? 'pass'
            : `FAIL ${v.caught.join('; ')}`;
    console.log(`${runner.padEnd(10)} ${detector.padEnd(22)} ${what.slice(0, 300)}`);
  }
}
for (const runner of RUNNERS) {
  const { agree, differ } = worlds.get(runner)!;
  console.log(
    `${runner.padEnd(10)} worlds seen from de ${agree}/${OTHER_WORLDS.length} agree with the page${differ.length ? ` (${differ.join('; ')})` : ''}`,
  );
}
await xvfb.close();
await t.close();
await site.close();
await provider.close();
const score = (runner: Runner) =>
  `${BOT_DETECTORS.filter((d) => passed(results.get(runner)!.get(d))).length}/${BOT_DETECTORS.length}`;
const agreeing = (runner: Runner) => `${worlds.get(runner)!.agree}/${OTHER_WORLDS.length}`;
console.log(
  `RESULT stealth_pass=${score('stealth')} headless_pass=${score('headless')} firefox_pass=${score('firefox')} playwright_pass=${score('playwright')} patchright_pass=${score('patchright')} stealth_worlds=${agreeing('stealth')} headless_worlds=${agreeing('headless')} firefox_worlds=${agreeing('firefox')} playwright_worlds=${agreeing('playwright')} patchright_worlds=${agreeing('patchright')}`,
);
