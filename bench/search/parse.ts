/**
 * SERP parser speed on the real saved pages (test/fixtures/serp). The baseline, measured in the
 * same run, is linkedom parsing the same page and doing nothing else: the floor for any parser
 * built on it. The ratio says what our reading of the results adds on top of the parse.
 *
 *   node bench/search/parse.ts [rounds]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DOMParser } from 'linkedom';
import { parseBingSerp, parseGoogleSerp } from '../../src/search/index.ts';

const SERP = resolve(import.meta.dirname, '../../test/fixtures/serp');
const rounds = Number(process.argv[2] ?? 20);

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Alternates the two so machine load hits both alike; medians shrug off GC pauses. */
function measure(base: () => unknown, ours: () => unknown): { base: number; ours: number } {
  base();
  ours();
  const b: number[] = [];
  const o: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    base();
    b.push(performance.now() - t);
    t = performance.now();
    ours();
    o.push(performance.now() - t);
  }
  return { base: median(b), ours: median(o) };
}

console.log(`rounds per page: ${rounds} (median ms)`);
console.log('page'.padEnd(62), 'results', 'parse-only ms', 'parser ms', 'ratio');
let totalBase = 0;
let totalOurs = 0;
let pages = 0;
let results = 0;
for (const engine of ['google', 'bing'] as const) {
  for (const gz of readdirSync(resolve(SERP, engine)).filter((f) => f.endsWith('.html.gz'))) {
    const file = gz.slice(0, -'.gz'.length);
    const html = gunzipSync(readFileSync(resolve(SERP, engine, gz))).toString('utf8');
    const pageUrl = `https://www.${engine}.com/search?q=x`;
    const parse = engine === 'google' ? parseGoogleSerp : parseBingSerp;
    const { base, ours } = measure(
      () => new DOMParser().parseFromString(html, 'text/html').querySelector('body'),
      () => parse(html, pageUrl),
    );
    totalBase += base;
    totalOurs += ours;
    const found = parse(html, pageUrl).length;
    pages++;
    results += found;
    console.log(
      `${engine}/${file}`.slice(0, 62).padEnd(62),
      String(found).padStart(7),
      base.toFixed(2).padStart(13),
      ours.toFixed(2).padStart(9),
      (ours / base).toFixed(2).padStart(5),
    );
  }
}
console.log(
  'all pages'.padEnd(62),
  ''.padStart(7),
  totalBase.toFixed(2).padStart(13),
  totalOurs.toFixed(2).padStart(9),
  (totalOurs / totalBase).toFixed(2).padStart(5),
);
console.log(
  `RESULT parser_over_parse_only=${(totalOurs / totalBase).toFixed(3)} parser_ms=${totalOurs.toFixed(2)} parse_only_ms=${totalBase.toFixed(2)} pages=${pages} results=${results}`,
);
