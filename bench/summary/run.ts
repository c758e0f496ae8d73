/**
 * Extractive summaries (no LLM): does the summary find the passage a query is about? Measured
 * against the naive answer, the page's opening cut to the same length, in the same run.
 *
 *   node bench/summary/run.ts [--limit N] [--chars N]
 *
 * Pages: the WCXB dev split (the wcxb-dev bench set, bench/README.md). For each page with ground-truth `with`
 * snippets (sentences of the main content, written by the data set's authors), the middle
 * snippet is the target and the query is its four longest distinct words, as a user asking about
 * a detail would type them. A summary hits when it holds at least 80% of the target's words.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { convertHtml, extractiveSummary } from '../../src/content/index.ts';
import { DATA_DIR, loadWcxb } from '../main-content/data.ts';

const { values: args } = parseArgs({
  options: { limit: { type: 'string' }, chars: { type: 'string' } },
});
const limit = args.limit ? Number(args.limit) : undefined;
const chars = args.chars ? Number(args.chars) : 1200;

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const COMMON = new Set([
  'about',
  'after',
  'their',
  'there',
  'these',
  'those',
  'which',
  'while',
  'would',
  'could',
  'should',
  'where',
  'other',
  'every',
  'being',
]);

function query(snippet: string): string {
  const distinct = [...new Set(words(snippet).filter((w) => w.length >= 4 && !COMMON.has(w)))];
  return distinct
    .sort((a, b) => b.length - a.length || a.localeCompare(b))
    .slice(0, 4)
    .join(' ');
}

function hit(summary: string, target: string): boolean {
  const have = new Set(words(summary));
  const want = words(target);
  return want.length > 0 && want.filter((w) => have.has(w)).length / want.length >= 0.8;
}

/** The page's opening as plain text, cut to the bound: what a reader gets without ranking. */
function lead(markdown: string): string {
  const text = markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#*_`>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.slice(0, chars);
}

const pages = loadWcxb(limit);
let cases = 0;
let oursHits = 0;
let leadHits = 0;
let oursMs = 0;
let found = 0;
for (const page of pages) {
  const gt = JSON.parse(
    readFileSync(join(DATA_DIR, 'wcxb-dev', 'ground-truth', `${page.id}.json`), 'utf8'),
  ) as { ground_truth: { with?: string[] } };
  const snippets = (gt.ground_truth.with ?? []).filter((s) => words(s).length >= 6);
  if (snippets.length === 0) continue;
  const target = snippets[Math.floor(snippets.length / 2)]!;
  const q = query(target);
  const markdown = convertHtml({
    html: page.html,
    url: page.url,
    format: 'markdown',
    onlyMainContent: true,
  }).content;
  // Only pages whose markdown holds the target say anything about ranking; the rest is the main content's score.
  if (!hit(markdown, target)) continue;
  found++;
  cases++;
  const t0 = performance.now();
  const summary = extractiveSummary(markdown, q, chars);
  oursMs += performance.now() - t0;
  if (summary.length > chars)
    throw new Error(
      `page ${page.id}: summary of ${summary.length} characters over the bound ${chars}`,
    );
  if (hit(summary, target)) oursHits++;
  if (hit(lead(markdown), target)) leadHits++;
}

const ours = oursHits / cases;
const base = leadHits / cases;
console.log(
  `pages with a target found in our markdown: ${found} of ${pages.length}; bound ${chars} characters`,
);
console.log(
  `extractive summary (BM25): hit rate ${ours.toFixed(3)}, ${(oursMs / cases).toFixed(2)} ms/page`,
);
console.log(`baseline, page opening cut to the bound: hit rate ${base.toFixed(3)}`);
console.log(
  `RESULT extractive_hit=${ours.toFixed(3)} lead_hit=${base.toFixed(3)} ratio=${(ours / base).toFixed(2)} ms_per_page=${(oursMs / cases).toFixed(2)} pages=${cases}`,
);
