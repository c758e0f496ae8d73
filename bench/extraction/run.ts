/**
 * Main-content extraction quality and speed: our markdown against Readability 0.6 on linkedom
 * (its textContent, as the published baseline), both measured in this run.
 *
 *   node bench/extraction/run.ts [--limit N] [--set article|wcxb] [--scores FILE]
 *
 * --limit samples every n-th page of each set for a quick look; report full runs only.
 * --scores writes per-page scores (JSON) for studying failure patterns across page types.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Readability } from '@mozilla/readability';
import { DOMParser } from 'linkedom';
import { convertHtml } from '../../src/content/index.ts';
import { loadArticleExtraction, loadWcxb, type Page } from './data.ts';
import { bagOfWordsF1, f1OfAverages, markdownText, mean, shingleScore } from './metrics.ts';

const { values: args } = parseArgs({
  options: { limit: { type: 'string' }, set: { type: 'string' }, scores: { type: 'string' } },
});
const limit = args.limit ? Number(args.limit) : undefined;

/** A page Readability throws on counts as extracting nothing. */
function readability(page: Page): string {
  const doc = new DOMParser().parseFromString(page.html, 'text/html');
  try {
    return new Readability(doc as never).parse()?.textContent ?? '';
  } catch {
    return '';
  }
}

function ours(page: Page): string {
  return markdownText(convertHtml({ html: page.html, url: page.url, format: 'markdown', onlyMainContent: true }).content);
}

interface Run {
  outputs: string[];
  ms: number;
}

/** Both extractors on each page in turn, alternating who goes first, so GC and heat fall on both alike. */
function measure(pages: Page[]): { base: Run; ours: Run } {
  for (const page of pages.slice(0, 5)) {
    readability(page);
    ours(page);
  }
  const base: Run = { outputs: [], ms: 0 };
  const mine: Run = { outputs: [], ms: 0 };
  pages.forEach((page, i) => {
    const order: Array<[Run, (p: Page) => string]> = [
      [base, readability],
      [mine, ours],
    ];
    if (i % 2) order.reverse();
    for (const [run, fn] of order) {
      const t0 = performance.now();
      run.outputs[i] = fn(page);
      run.ms += performance.now() - t0;
    }
  });
  return { base, ours: mine };
}

const fmt = (n: number) => n.toFixed(3);
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');

function line(label: string, baseF1: number, ourF1: number, n: number, baseMs?: number, ourMs?: number): string {
  const speed = baseMs === undefined || ourMs === undefined ? '' : `  ms/page ${(baseMs / n).toFixed(1)} -> ${(ourMs / n).toFixed(1)} (${ratio(ourMs, baseMs)})`;
  return `${label.padEnd(16)} n=${String(n).padStart(4)}  F1 readability ${fmt(baseF1)}  ours ${fmt(ourF1)} (${ratio(ourF1, baseF1)})${speed}`;
}

const report: Record<string, unknown> = {};

if (!args.set || args.set === 'article') {
  const pages = loadArticleExtraction(limit);
  const { base, ours: mine } = measure(pages);
  const baseScores = pages.map((p, i) => shingleScore(p.truth, base.outputs[i]!));
  const ourScores = pages.map((p, i) => shingleScore(p.truth, mine.outputs[i]!));
  console.log('article-extraction (4-token shingles, F1 of averaged precision and recall)');
  console.log(line('all', f1OfAverages(baseScores), f1OfAverages(ourScores), pages.length, base.ms, mine.ms));
  report.article = pages.map((p, i) => ({ id: p.id, base: baseScores[i], ours: ourScores[i] }));
}

if (!args.set || args.set === 'wcxb') {
  const pages = loadWcxb(limit);
  const { base, ours: mine } = measure(pages);
  const baseF1 = pages.map((p, i) => bagOfWordsF1(p.truth, base.outputs[i]!));
  const ourF1 = pages.map((p, i) => bagOfWordsF1(p.truth, mine.outputs[i]!));
  console.log('wcxb-dev (bag-of-words F1, mean over pages)');
  console.log(line('all', mean(baseF1), mean(ourF1), pages.length, base.ms, mine.ms));
  for (const type of [...new Set(pages.map((p) => p.type))].sort()) {
    const idx = pages.flatMap((p, i) => (p.type === type ? [i] : []));
    console.log(line(`  ${type}`, mean(idx.map((i) => baseF1[i]!)), mean(idx.map((i) => ourF1[i]!)), idx.length));
  }
  report.wcxb = pages.map((p, i) => ({ id: p.id, type: p.type, base: baseF1[i], ours: ourF1[i] }));
}

if (args.scores) writeFileSync(args.scores, JSON.stringify(report, null, 1));
