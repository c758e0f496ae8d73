/** A discovered URL and the words a site gave it (sitemap or feed title, link text). */
export interface Candidate {
  url: string;
  text: string;
}

/**
 * Words of a string: split on anything not a letter or digit, and on camelCase and
 * letter/digit boundaries, lower-cased. `/docs/getStarted_v2.html` -> docs get started v 2 html.
 * Every pattern looks at a fixed number of characters from each position: the acronym split
 * (`HTMLParser` -> HTML Parser) was once `(\p{Lu}+)(\p{Lu}\p{Ll})`, which backtracks through a
 * whole run of capitals from each of its letters, quadratic (40,000 capitals: 4 s).
 */
export function words(s: string): string[] {
  return s
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(?=\p{Lu}\p{Ll})/gu, '$1 ')
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, (_m, a, b, c, d) => (a ? `${a} ${b}` : `${c} ${d}`))
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Path and query of a normalised href, split without a second URL parse (50,000 of them add up). */
function pathAndQuery(href: string): { path: string; query: string } {
  const slash = href.indexOf('/', href.indexOf('//') + 2);
  const rest = slash < 0 ? '/' : href.slice(slash);
  const q = rest.indexOf('?');
  const rawPath = q < 0 ? rest : rest.slice(0, q);
  let path = rawPath;
  if (rawPath.includes('%')) {
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      // A malformed escape stays as written.
    }
  }
  return { path, query: q < 0 ? '' : rest.slice(q + 1) };
}

/** How well one query word matches one word of a URL or title, 0 to 1. */
function wordMatch(term: string, word: string): number {
  if (word === term) return 1;
  if (term.length >= 3 && word.startsWith(term)) return 0.75;
  if (word.length >= 4 && term.startsWith(word)) return 0.6;
  let common = 0;
  while (common < term.length && common < word.length && term[common] === word[common]) common++;
  // Shared stems such as pricing/priced, installation/installing.
  if (common >= 4 && common >= 0.75 * Math.min(term.length, word.length)) return 0.5;
  if (term.length >= 4 && word.includes(term)) return 0.4;
  return 0;
}

function bestMatch(term: string, ws: string[]): number {
  let best = 0;
  for (const w of ws) {
    const m = wordMatch(term, w);
    if (m > best) best = m;
    if (best === 1) break;
  }
  return best;
}

function containsPhrase(ws: string[], terms: string[]): boolean {
  if (terms.length < 2) return false;
  outer: for (let i = 0; i + terms.length <= ws.length; i++) {
    for (let j = 0; j < terms.length; j++) if (ws[i + j] !== terms[j]) continue outer;
    return true;
  }
  return false;
}

function depth(path: string): number {
  let n = 0;
  for (let i = 0; i < path.length; i++)
    if (path[i] === '/' && i + 1 < path.length && path[i + 1] !== '/') n++;
  return n;
}

/**
 * Every way a query word can match (see wordMatch) needs its first four letters, or the whole
 * word when shorter, somewhere in the text: a cheap test that spares most URLs the tokenizer.
 */
function mayMatch(haystack: string, stems: string[]): boolean {
  for (const stem of stems) if (haystack.includes(stem)) return true;
  return false;
}

/**
 * Relevance of a URL to the query words: each word scores by its best match in the URL's path
 * (the last segment weighs most) or in the site's own words for it, scaled by the share of query
 * words matched, with a bonus when the words appear together in order. 0 means unrelated.
 */
export function relevance(c: Candidate, terms: string[]): number {
  const { path: rawPath, query: rawQuery } = pathAndQuery(c.url);
  const segments = rawPath.split('/').filter(Boolean);
  const last = words(segments.at(-1) ?? '');
  const path = words(segments.join(' '));
  const query = words(rawQuery);
  const text = words(c.text);
  let sum = 0;
  let matched = 0;
  for (const term of terms) {
    const inUrl = Math.max(
      bestMatch(term, last),
      0.8 * bestMatch(term, path),
      0.5 * bestMatch(term, query),
    );
    const inText = 0.9 * bestMatch(term, text);
    const score = Math.max(inUrl, inText) + 0.25 * Math.min(inUrl, inText);
    if (score > 0) matched++;
    sum += score;
  }
  if (matched === 0) return 0;
  const coverage = matched / terms.length;
  const phrase = containsPhrase(path, terms) || containsPhrase(text, terms) ? 0.5 : 0;
  return (sum / terms.length) * coverage + phrase;
}

interface Ranked {
  href: string;
  depth: number;
  score: number;
}

/**
 * Orders candidates and cuts to `limit`. With a search, only related URLs are kept, most
 * relevant first (ties: shallower, then alphabetical). Without one: the home page, then the start
 * URL, then shallow before deep, alphabetical within a depth, so the same site maps the same way.
 */
export function rankCandidates(
  candidates: Iterable<Candidate>,
  opts: { search?: string; startUrl: string; limit: number },
): string[] {
  const home = new URL('/', opts.startUrl).href;
  const terms = opts.search ? [...new Set(words(opts.search))] : [];
  const stems = terms.map((t) => t.slice(0, 4));
  const ranked: Ranked[] = [];
  for (const c of candidates) {
    const { path, query } = pathAndQuery(c.url);
    const at = { href: c.url, depth: depth(path), score: 0 };
    if (terms.length === 0) {
      at.score = c.url === home ? 2 : c.url === opts.startUrl ? 1 : 0;
    } else {
      if (
        !mayMatch(`${path}?${query}`.toLowerCase(), stems) &&
        !mayMatch(c.text.toLowerCase(), stems)
      )
        continue;
      at.score = relevance(c, terms);
      if (at.score === 0) continue;
    }
    ranked.push(at);
  }
  ranked.sort(
    (a, b) =>
      b.score - a.score || a.depth - b.depth || (a.href < b.href ? -1 : a.href > b.href ? 1 : 0),
  );
  return ranked.slice(0, opts.limit).map((r) => r.href);
}
