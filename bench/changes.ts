/**
 * Change tracking's false and missed changes, through the API.
 *
 *   node bench/changes.ts [--pages N]
 *
 * A loopback site serves WCXB dev pages (see bench/main-content/data.ts for where the data set comes
 * from when absent), each visit with volatile parts injected as real sites have them: a clock and
 * a view counter inside the first paragraph, and a rotating ad slot before the page's content.
 * Every page is scraped with a changeTracking format three times: the first is `new`; the second,
 * with only the volatile parts different, must be `same` (a `changed` is a false change; goal 0);
 * before the third, a sentence is added to the longest paragraph the first scrape's markdown holds
 * (so the edit is in the main content; one shown once, outside scripts), which must be `changed`
 * with the edit in the diff (goal: all of those whose markdown holds the edit). Pages whose first
 * scrape fails or has no markdown are left out; pages with no such paragraph count for false
 * changes only.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { startBenchServer } from './bench-server.ts';
import { loadWcxb } from './main-content/data.ts';

const { values: args } = parseArgs({ options: { pages: { type: 'string' } } });
const KEY = 'wd_bench_key_0123456789abcdef';
const pages = loadWcxb(Number(args.pages ?? 200)).map((p) => p.html);
/** Per edited page, where its edit goes: the end of a paragraph the first scrape's markdown holds. */
const edited = new Map<number, number>();
let visits = 0;

const ADS = [
  'Save 20% on garden tools',
  'New: the lightest laptop yet',
  'Book your summer flights',
];
const EDIT = 'This sentence was added by the change-tracking bench.';

const words = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Where the real change goes: the end of the longest paragraph of the page whose opening words
 * the first scrape's markdown holds, so that the edit is in the main content; undefined for none.
 */
function paragraphInMainContent(html: string, markdown: string): number | undefined {
  const md = words(markdown);
  let best: { end: number; length: number } | undefined;
  for (const m of html.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/gi)) {
    const text = words(m[1]!.replace(/<[^>]+>/g, ''));
    if (text.length < 60 || !md.includes(text.slice(0, 40))) continue;
    // A copy inside a script (a JSON blob of the page) or repeated elsewhere may not be the one shown.
    if (html.lastIndexOf('<script', m.index) > html.lastIndexOf('</script>', m.index)) continue;
    if (html.indexOf(m[1]!) !== html.lastIndexOf(m[1]!)) continue;
    const end = m.index + m[0].length - '</p>'.length;
    if (!best || text.length > best.length) best = { end, length: text.length };
  }
  return best?.end;
}

function serve(i: number): string {
  visits++;
  let html = pages[i]!;
  const at = edited.get(i);
  if (at !== undefined) html = `${html.slice(0, at)} ${EDIT}${html.slice(at)}`;
  const clock = new Date(Date.now() + visits * 61_000).toISOString().slice(11, 19);
  const volatile = ` <small>Updated ${clock} · ${1000 + visits * 7} views</small>`;
  const first = html.search(/<\/p>/i);
  if (first >= 0) html = `${html.slice(0, first)}${volatile}${html.slice(first)}`;
  const ad = `<aside class="ad-slot"><a href="/ad/${visits}">${ADS[visits % ADS.length]}</a></aside>`;
  return html.replace(/<body\b[^>]*>/i, (body) => `${body}${ad}`);
}

const site = createServer((req, res) => {
  const i = Number(/^\/p\/(\d+)\.html$/.exec(req.url ?? '')?.[1] ?? -1);
  if (!(i >= 0 && i < pages.length)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(serve(i));
});
site.keepAliveTimeout = 120_000;
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
const server = await startBenchServer(KEY, { WEBDATA_SHED_EVENT_LOOP_DELAY_MS: '0' });

async function track(i: number): Promise<any> {
  const res = await request(`${server.address}/api/v1/scrape/single`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      url: `${origin}/p/${i}.html`,
      formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }],
    }),
  });
  return res.body.json();
}

let compared = 0;
let falseChanges = 0;
let detected = 0;
let editable = 0;
let reached = 0;
let diffNamesEdit = 0;
const falseExamples: string[] = [];
for (let i = 0; i < pages.length; i++) {
  const first = await track(i);
  if (!first.success || !first.markdown?.trim()) continue;
  compared++;
  const second = await track(i);
  if (second.changeTracking?.changeStatus === 'changed') {
    falseChanges++;
    if (falseExamples.length < 3) falseExamples.push(second.changeTracking.diff?.text ?? '');
  }
  const at = paragraphInMainContent(pages[i]!, first.markdown);
  if (at === undefined) continue;
  editable++;
  edited.set(i, at);
  const third = await track(i);
  // An edit the converter did not keep (the paragraph turned out not to be shown) tests nothing.
  if (!third.markdown?.includes(EDIT)) continue;
  reached++;
  if (third.changeTracking?.changeStatus === 'changed') {
    detected++;
    if (third.changeTracking.diff?.text.includes(EDIT)) diffNamesEdit++;
  }
}
await server.close();
site.close();

console.log(`${compared} pages compared (of ${pages.length})`);
console.log(`false changes (volatile parts only): ${falseChanges}`);
for (const d of falseExamples) console.log(d.split('\n').slice(0, 12).join('\n'));
console.log(
  `real changes: ${editable} pages with a main-content paragraph edited, ${reached} with the edit in their markdown; detected ${detected}, with the edit in the diff ${diffNamesEdit}`,
);
console.log(
  `RESULT false_changes=${falseChanges} detected_share=${(detected / Math.max(1, reached)).toFixed(3)} compared=${compared}`,
);
