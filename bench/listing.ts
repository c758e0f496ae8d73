/**
 * The `listing` format on WCXB dev's listing, collection and product pages: how many pages yield
 * cards, cards per page, how many carry a price and a picture, how many card names the benchmark's
 * own main content holds (its truth keeps the cards on some pages and only the category's
 * introduction on others), and the time per page against the plain markdown conversion of the same
 * page in the same run (called in turns, in this process).
 *
 *   node bench/listing.ts [--limit N] [--types listing,collection,product]
 */
import { parseArgs } from 'node:util';
import { extractListing } from '../src/content/convert/listing.ts';
import { convertHtml } from '../src/content/index.ts';
import { loadWcxb } from './main-content/data.ts';

const { values } = parseArgs({
  options: {
    limit: { type: 'string' },
    types: { type: 'string', default: 'listing,collection,product' },
  },
});
const types = new Set(values.types!.split(','));
const pages = loadWcxb(values.limit ? Number(values.limit) : undefined).filter((p) =>
  types.has(p.type),
);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
};
const words = (s: string) => s.toLowerCase().replace(/\W+/g, ' ').trim();

interface Tally {
  pages: number;
  yielded: number;
  items: number;
  priced: number;
  pictured: number;
  namesInTruth: number;
}
const tally = (): Tally => ({
  pages: 0,
  yielded: 0,
  items: 0,
  priced: 0,
  pictured: 0,
  namesInTruth: 0,
});
const byType = new Map<string, Tally>();
const all = tally();
const listingMs: number[] = [];
const markdownMs: number[] = [];

// One untimed pass of each kind first, so neither side pays the compiler's warm-up.
for (const p of pages.slice(0, 5)) {
  extractListing(p.html, p.url);
  convertHtml({ html: p.html, url: p.url, format: 'markdown', onlyMainContent: true });
}

for (const [i, p] of pages.entries()) {
  const markdown = () =>
    convertHtml({ html: p.html, url: p.url, format: 'markdown', onlyMainContent: true });
  // Alternated, so load from other work on the machine falls on both sides alike.
  let items: ReturnType<typeof extractListing> = [];
  const runs = i % 2 ? ['listing', 'markdown'] : ['markdown', 'listing'];
  for (const run of runs) {
    const start = performance.now();
    if (run === 'listing') items = extractListing(p.html, p.url);
    else markdown();
    (run === 'listing' ? listingMs : markdownMs).push(performance.now() - start);
  }
  const truth = words(p.truth);
  const t = byType.get(p.type) ?? tally();
  byType.set(p.type, t);
  for (const s of [t, all]) {
    s.pages++;
    if (items.length) s.yielded++;
    s.items += items.length;
    s.priced += items.filter((it) => it.price !== undefined).length;
    s.pictured += items.filter((it) => it.image).length;
    s.namesInTruth += items.filter((it) => truth.includes(words(it.name))).length;
  }
}

const share = (n: number, d: number) => (d ? (n / d).toFixed(2) : '0');
console.log('type        pages  yield  items/page(yielding)  priced  pictured  names-in-truth');
for (const [type, t] of [...byType, ['all', all] as const]) {
  console.log(
    `${type.padEnd(11)} ${String(t.pages).padStart(5)}  ${share(t.yielded, t.pages).padStart(5)}  ${share(t.items, t.yielded).padStart(20)}  ${share(t.priced, t.items).padStart(6)}  ${share(t.pictured, t.items).padStart(8)}  ${share(t.namesInTruth, t.items).padStart(14)}`,
  );
}
const p50Listing = median(listingMs);
const p50Markdown = median(markdownMs);
console.log(
  `p50 per page: listing ${p50Listing.toFixed(1)} ms, markdown (main content) ${p50Markdown.toFixed(1)} ms`,
);
console.log(
  `RESULT pages=${all.pages} yield_share=${share(all.yielded, all.pages)} items_per_yielding_page=${share(all.items, all.yielded)} priced_share=${share(all.priced, all.items)} pictured_share=${share(all.pictured, all.items)} names_in_truth_share=${share(all.namesInTruth, all.items)} listing_p50_ms=${p50Listing.toFixed(1)} markdown_p50_ms=${p50Markdown.toFixed(1)} listing_over_markdown=${(p50Listing / (p50Markdown || 1)).toFixed(2)}`,
);
