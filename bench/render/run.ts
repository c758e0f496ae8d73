/**
 * Render decisions measured through the API: is the answer the page, and did it take a browser?
 *
 *   node bench/render/run.ts [--per-class N] [--wcxb N] [--browser-sample N]
 *
 * Two corpora, both served from loopback and scraped one page at a time through POST
 * /api/v1/scrape/single on a real server:
 * - the page classes of test/fixtures/site/routes/render.ts (static, unreachable subresources,
 *   SPA shell in a layout, content 1-3 s late, lazy below the fold, client-side bot verdict,
 *   JS cookie challenge, never network-idle, streamed HTML, always blocked), N pages each;
 * - the real pages of the wcxb-dev bench set (bench/README.md) (all of them unless --wcxb limits it).
 * Figures: share of pages whose markdown holds the real content (fixtures: every paragraph;
 * wcxb: success and bag-of-words recall of the ground truth >= 0.5), share of static pages
 * answered without a browser, p50/p95 latency per class, failures judged a challenge, pages
 * over 10 s. Baseline in the same run: the same pages forced through the browser (an action
 * skips the HTTP path), on every fixture page and a wcxb sample, to show what rendering every
 * page would cost.
 */

import { parseArgs } from 'node:util';
import { request } from 'undici';
import { articleOf, RENDER_CLASSES } from '../../test/fixtures/site/routes/render.ts';
import { startFixtureSite } from '../../test/fixtures/site/server.ts';
import { startBenchServer } from '../bench-server.ts';
import { loadWcxb } from '../main-content/data.ts';
import { markdownText, tokens } from '../main-content/metrics.ts';
import { servePages } from '../page-site.ts';

const { values: args } = parseArgs({
  options: {
    'per-class': { type: 'string' },
    wcxb: { type: 'string' },
    'browser-sample': { type: 'string' },
  },
});
const perClass = Number(args['per-class'] ?? 4);
const wcxbLimit = args.wcxb ? Number(args.wcxb) : undefined;
const browserSample = Number(args['browser-sample'] ?? 40);
const KEY = 'wd_bench_key_0123456789abcdef';
const SLOW_MS = 10_000;
/** Forces the browser: any action skips the HTTP rung. */
const FORCE_BROWSER = [{ type: 'scroll', direction: 'up' }];

interface Outcome {
  cls: string;
  url?: string;
  ms: number;
  right: boolean;
  method?: string;
  success: boolean;
  error?: string;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);

/** Share of the truth's words the markdown holds, with multiplicity. */
function recall(truth: string, markdown: string): number {
  const want = tokens(truth);
  if (want.length === 0) return 1;
  const have = new Map<string, number>();
  for (const t of tokens(markdownText(markdown))) have.set(t, (have.get(t) ?? 0) + 1);
  let hit = 0;
  for (const t of want) {
    const c = have.get(t) ?? 0;
    if (c > 0) {
      hit++;
      have.set(t, c - 1);
    }
  }
  return hit / want.length;
}

const site = await startFixtureSite();
const wcxb = loadWcxb(wcxbLimit);
const wcxbSite = await servePages(wcxb.map((p) => p.html));

const server = await startBenchServer(KEY);

async function scrape(body: Record<string, unknown>): Promise<{ ms: number; json: any }> {
  const t0 = performance.now();
  const res = await request(`${server.address}/api/v1/scrape/single`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  const json = (await res.body.json()) as any;
  return { ms: performance.now() - t0, json };
}

async function fixturePages(forceBrowser: boolean): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const cls of [...RENDER_CLASSES, 'blocked']) {
    for (let n = 1; n <= perClass; n++) {
      const { ms, json } = await scrape({
        url: `${site.origin}/render/${cls}?n=${n}`,
        ...(forceBrowser ? { actions: FORCE_BROWSER } : {}),
      });
      const right =
        cls === 'blocked'
          ? json.success === false && json.cost === 0
          : json.success === true &&
            articleOf(cls, n).paragraphs.every((p) => (json.markdown as string).includes(p)) &&
            !/Loading…|Checking your browser|Access denied/i.test(json.markdown);
      out.push({ cls, ms, right, method: json.method, success: json.success, error: json.error });
    }
  }
  return out;
}

async function wcxbPages(indices: number[], forceBrowser: boolean): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const i of indices) {
    const page = wcxb[i]!;
    const { ms, json } = await scrape({
      url: wcxbSite.urls[i]!,
      ...(forceBrowser ? { actions: FORCE_BROWSER } : {}),
    });
    const right = json.success === true && recall(page.truth, json.markdown ?? '') >= 0.5;
    out.push({
      cls: page.type,
      url: page.url,
      ms,
      right,
      method: json.method,
      success: json.success,
      error: json.error,
    });
  }
  return out;
}

function report(label: string, rows: Outcome[]): void {
  const classes = [...new Set(rows.map((r) => r.cls))];
  for (const cls of classes) {
    const of = rows.filter((r) => r.cls === cls);
    const methods = Object.entries(Object.groupBy(of, (r) => r.method ?? 'none'))
      .map(([m, rs]) => `${m} ${rs!.length}`)
      .join(', ');
    console.log(
      `${label} ${cls.padEnd(17)} right ${pct(of.filter((r) => r.right).length, of.length).padStart(6)}  p50 ${quantile(
        of.map((r) => r.ms),
        0.5,
      )
        .toFixed(0)
        .padStart(6)} ms  p95 ${quantile(
        of.map((r) => r.ms),
        0.95,
      )
        .toFixed(0)
        .padStart(6)} ms  methods: ${methods}`,
    );
  }
}

try {
  // Warm: the headless pool, the content workers.
  await scrape({ url: `${site.origin}/render/spa-shell?n=99` });

  const fixtures = await fixturePages(false);
  report('fixtures', fixtures);
  const fixturesBrowser = await fixturePages(true);
  report('fixtures (always browser)', fixturesBrowser);

  const all = wcxb.map((_, i) => i);
  const wcxbRows = await wcxbPages(all, false);
  report('wcxb', wcxbRows);
  const step = Math.max(1, Math.floor(wcxb.length / browserSample));
  const sample = all.filter((i) => i % step === 0).slice(0, browserSample);
  const wcxbBrowser = await wcxbPages(sample, true);
  const wcxbSameSample = sample.map((i) => wcxbRows[i]!);

  for (const r of wcxbRows.filter((row) => row.ms > SLOW_MS))
    console.log(
      `wcxb over ${SLOW_MS / 1000} s (${r.cls}, ${r.method ?? 'failed'}, ${r.ms.toFixed(0)} ms): ${r.url}`,
    );
  const failures = wcxbRows.filter((r) => !r.success);
  for (const f of failures.slice(0, 15))
    console.log(`wcxb failure (${f.cls}, ${f.ms.toFixed(0)} ms): ${f.error}`);
  const errorsOf = Object.entries(
    Object.groupBy(failures, (r) => (r.error ?? '').replace(/\d+/g, 'N').slice(0, 80)),
  ).map(([e, rs]) => `${rs!.length} x ${e}`);
  if (errorsOf.length) console.log(`wcxb failures by message:\n  ${errorsOf.join('\n  ')}`);

  const staticClasses = new Set(['static', 'unreachable', 'stream']);
  const staticRows = fixtures.filter((r) => staticClasses.has(r.cls));
  const wcxbHttp = wcxbRows.filter((r) => r.method === 'http').length;
  const fixtureRight = fixtures.filter((r) => r.right).length / fixtures.length;
  const wcxbRight = wcxbRows.filter((r) => r.right).length / wcxbRows.length;
  const wcxbSuccess = wcxbRows.filter((r) => r.success).length / wcxbRows.length;
  const challenged = wcxbRows.filter((r) => /challenge|blocked/.test(r.error ?? '')).length;
  const slow = wcxbRows.filter((r) => r.ms > SLOW_MS).length;
  const staticNoBrowser = staticRows.filter((r) => r.method === 'http').length / staticRows.length;
  const p50 = quantile(
    wcxbRows.map((r) => r.ms),
    0.5,
  );
  const p95 = quantile(
    wcxbRows.map((r) => r.ms),
    0.95,
  );
  const sampleP50 = quantile(
    wcxbSameSample.map((r) => r.ms),
    0.5,
  );
  const browserP50 = quantile(
    wcxbBrowser.map((r) => r.ms),
    0.5,
  );
  const fixtureP50 = quantile(
    fixtures.map((r) => r.ms),
    0.5,
  );
  const fixtureBrowserP50 = quantile(
    fixturesBrowser.map((r) => r.ms),
    0.5,
  );

  console.log(
    `fixtures: ${fixtures.length} pages, real content ${pct(fixtures.filter((r) => r.right).length, fixtures.length)} (always-browser baseline ${pct(fixturesBrowser.filter((r) => r.right).length, fixturesBrowser.length)}), static pages without a browser ${pct(staticRows.filter((r) => r.method === 'http').length, staticRows.length)}, p50 ${fixtureP50.toFixed(0)} ms vs always-browser ${fixtureBrowserP50.toFixed(0)} ms (${(fixtureP50 / fixtureBrowserP50).toFixed(2)}x)`,
  );
  console.log(
    `wcxb: ${wcxbRows.length} pages, success ${pct(wcxbRows.filter((r) => r.success).length, wcxbRows.length)}, real content (recall >= 0.5) ${pct(wcxbRows.filter((r) => r.right).length, wcxbRows.length)}, over HTTP ${pct(wcxbHttp, wcxbRows.length)}, judged a challenge or block ${challenged}, over ${SLOW_MS / 1000} s ${slow}, p50 ${p50.toFixed(0)} ms p95 ${p95.toFixed(0)} ms max ${Math.max(...wcxbRows.map((r) => r.ms)).toFixed(0)} ms`,
  );
  console.log(
    `wcxb sample of ${sample.length}: p50 ${sampleP50.toFixed(0)} ms vs always-browser ${browserP50.toFixed(0)} ms (${(sampleP50 / browserP50).toFixed(2)}x), always-browser real content ${pct(wcxbBrowser.filter((r) => r.right).length, wcxbBrowser.length)}`,
  );
  console.log(
    `RESULT name=render fixture_right=${fixtureRight.toFixed(3)} static_no_browser=${staticNoBrowser.toFixed(3)} wcxb_success=${wcxbSuccess.toFixed(3)} wcxb_right=${wcxbRight.toFixed(3)} wcxb_challenged=${challenged} wcxb_over_10s=${slow} wcxb_p50_ms=${p50.toFixed(0)} wcxb_p95_ms=${p95.toFixed(0)} wcxb_vs_always_browser_p50=${(sampleP50 / browserP50).toFixed(3)} fixtures_vs_always_browser_p50=${(fixtureP50 / fixtureBrowserP50).toFixed(3)}`,
  );
} finally {
  await server.close();
  await site.close();
  wcxbSite.close();
}
