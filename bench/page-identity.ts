/**
 * One hash over the service's scrape answers, to show a refactor left them byte-identical.
 *
 *   node bench/page-identity.ts [--pages N]
 *
 * Scrapes a fixed list of pages through POST /api/v1/scrape/single of this checkout's service,
 * asking for markdown, html, rawHtml and links with metadata: the local fixture site
 * (test/fixtures/site: HTML, text, JSON, charsets, a PDF, an image, pages only a browser renders)
 * and N pages each of the article-extraction and WCXB dev sets (from `WEBDATA_BENCH_DATA`, else
 * `../shared/data`; bench/main-content/data.ts says where to get them), served from loopback.
 * Volatile parts (the timestamp and cachedAt, the loopback ports) are taken out before hashing. Run it in two
 * checkouts (a `git worktree add` of the base with node_modules linked) and compare the hashes;
 * `--list` prints each page's own hash, to find the one that differs.
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startFixtureSite } from '../test/fixtures/site/server.ts';
import { startBenchServer } from './bench-server.ts';
import { loadArticleExtraction, loadWcxb } from './main-content/data.ts';
import { servePages } from './page-site.ts';

const { values: args } = parseArgs({
  options: { pages: { type: 'string' }, list: { type: 'boolean' } },
});
const perSet = Number(args.pages ?? 40);
const KEY = 'wd_bench_key_0123456789abcdef';

/** Fixture pages covering every kind of answer and every rung of the ladder. */
const FIXTURE_PATHS = [
  '/',
  '/article.html',
  '/long-article',
  '/notes.txt',
  '/api/data.json',
  '/image.png',
  '/docs/harbour-report.pdf',
  '/legacy/windows-1252.html',
  '/legacy/shift_jis.html',
  '/charset/shift_jis-meta',
  '/charset/utf8-bom',
  '/charset/windows-1252',
  '/redirect-to?url=/article.html',
  '/browser/js-article',
  '/browser/js-only',
  '/browser/spa',
  '/browser/app-with-noscript-copy',
  '/render/static',
  '/render/spa-shell',
  '/render/late',
  '/render/lazy',
  '/render/cookie-challenge',
  '/render/blocked',
];

const pages = [...loadArticleExtraction(perSet), ...loadWcxb(perSet)].map((p) => p.html);
const dataSite = await servePages(pages);
const dataOrigin = new URL(dataSite.urls[0]!).origin;
const fixture = await startFixtureSite();
const server = await startBenchServer(KEY, { WEBDATA_SHED_EVENT_LOOP_DELAY_MS: '0' });

const urls = [...FIXTURE_PATHS.map((path) => `${fixture.origin}${path}`), ...dataSite.urls];

/** The answer as text with what changes between runs of the same code replaced. */
function stable(answer: Record<string, unknown>): string {
  // cachedAt is when this run's cache kept the answer: a time like the timestamp.
  const { timestamp: _, cachedAt: __, ...rest } = answer;
  return JSON.stringify(rest)
    .replaceAll(fixture.origin, 'http://fixture')
    .replaceAll(dataOrigin, 'http://data')
    .replaceAll(`127.0.0.1:${fixture.port}`, 'fixture')
    .replaceAll(dataOrigin.slice('http://'.length), 'data');
}

async function scrape(url: string): Promise<{ answer: string; outcome: string }> {
  const res = await request(`${server.address}/api/v1/scrape/single`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      url,
      formats: ['markdown', 'html', 'rawHtml', 'links'],
      extractMetadata: true,
    }),
  });
  const body = (await res.body.json()) as Record<string, unknown>;
  const outcome = body.success ? `ok ${body.method}` : `failed (${body.error})`;
  return { answer: `${res.statusCode} ${stable(body)}`, outcome };
}

const started = Date.now();
const total = createHash('sha256');
try {
  // One at a time, so no answer depends on another's load (a budget met or not).
  for (const url of urls) {
    const { answer, outcome } = await scrape(url);
    total.update(answer).update('\n');
    if (args.list)
      console.log(
        `${createHash('sha256').update(answer).digest('hex').slice(0, 16)} ${url} ${outcome}`,
      );
  }
} finally {
  await server.close();
  await fixture.close();
  dataSite.close();
}
const seconds = (Date.now() - started) / 1000;
console.log(
  `${urls.length} answers (${FIXTURE_PATHS.length} fixture pages, ${pages.length} data set pages) in ${seconds.toFixed(0)} s`,
);
console.log(`RESULT answers=${urls.length} sha256=${total.digest('hex')}`);
