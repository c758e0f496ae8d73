import { httpUrl, parseDocument, text } from './serp-html.ts';
import type { SearchHit, SerpPage } from './types.ts';

/**
 * Parser for Google's results page, on linkedom. Google's markup changes often and its class
 * names are generated, so organic results are found by what has stayed stable across the desktop,
 * mobile and no-JavaScript pages we keep: a link wrapping the result's heading. Ads live in their
 * own blocks and are skipped by them.
 */

const AD_BLOCKS =
  '#tads, #tadsb, #bottomads, [data-text-ad], .uEierd, [aria-label="Ads"], [aria-label="Sponsored"]';
const RESULT_BLOCK = '.tF2Cxc, .g, .Gx5Zad, .MjjYud';
/** `.VwiC3b` on the JavaScript page; `.BNeawe.s3v9rd` on the basic (no-JS) page. */
const SNIPPET = '.VwiC3b, .BNeawe.s3v9rd';

const GOOGLE_HOST = /(^|\.)google(usercontent)?\.[a-z.]+$/;
/** Google's own machinery; its pages about search (`/search/howsearchworks/`) are real results. */
const INTERNAL_PATH = /^\/(search|url|aclk|imgres|preferences|setprefs)$|^\/(sorry|httpservice)\//;
/** The hosts that serve Google's results pages (not its many product subdomains). */
const SEARCH_HOST = /^(www\.)?google\.[a-z.]+$/;

/** Google's `/url?q=` (no-JS) and `/url?url=` redirects carry the real target; ads go through `/aclk`. */
export function decodeGoogleHref(href: string, pageUrl: string): URL | undefined {
  const url = httpUrl(href, pageUrl);
  if (!url) return undefined;
  const base = httpUrl(pageUrl);
  const onSerpHost = GOOGLE_HOST.test(url.hostname) || url.host === base?.host;
  if (onSerpHost && url.pathname === '/url')
    return httpUrl(url.searchParams.get('q') ?? url.searchParams.get('url'));
  return url;
}

/** A link into Google's own machinery rather than to a page: its result pages, redirects, ads, cache. */
export function isGoogleInternal(url: URL, serpHost?: string): boolean {
  const h = url.hostname.toLowerCase();
  if (h === 'webcache.googleusercontent.com' || h.startsWith('consent.google.')) return true;
  return (SEARCH_HOST.test(h) || url.host === serpHost) && INTERNAL_PATH.test(url.pathname);
}

/** The innermost snippet element: on the basic page the outer ones also hold the sitelinks row. */
function snippetOf(block: Element | null, link: Element): string {
  if (!block) return '';
  for (const el of block.querySelectorAll(SNIPPET)) {
    if (
      link.contains(el) ||
      el.querySelector(SNIPPET) ||
      (el.matches('.s3v9rd') && el.querySelector('a'))
    )
      continue;
    if (text(el)) return text(el);
  }
  return '';
}

export function parseGoogleSerp(html: string, pageUrl: string): SearchHit[] {
  const doc = parseDocument(html);
  const serpHost = httpUrl(pageUrl)?.host;
  // Desktop pages title organic results with `h3` and use `role=heading` for carousels (videos,
  // top stories); the mobile page has no `h3` at all, and there `role=heading` is the title.
  const headingSelector = doc.querySelector('a[href] h3') ? 'h3' : '[role="heading"]';
  const hits: SearchHit[] = [];
  for (const link of doc.querySelectorAll('a[href]')) {
    const heading = link.querySelector(headingSelector);
    if (!heading || link.closest(AD_BLOCKS)) continue;
    const url = decodeGoogleHref(link.getAttribute('href')!, pageUrl);
    if (!url || isGoogleInternal(url, serpHost)) continue;
    hits.push({
      url: url.href,
      title: text(heading),
      description: snippetOf(link.closest(RESULT_BLOCK), link),
    });
  }
  return hits;
}

/** Where each page variant puts its results: `#rso`/`#search` (JavaScript page), `#main` (basic page). */
const RESULTS_AREA = ['#rso', '#search', '#main'];
/** Google's English "no results" card; other languages are recognised by the empty results area alone. */
const NO_RESULTS_TEXT = /did not match any documents/i;

function resultsArea(doc: Document): Element | undefined {
  return RESULTS_AREA.map((s) => doc.querySelector(s)).find((el) => el !== null);
}

/**
 * Whether a page from which no result was parsed is Google saying it found nothing, rather than a
 * page whose layout the parser no longer reads. It must show a results area or the "did not match"
 * card, and that area (or the whole page) must hold no link leaving Google outside ads and footer:
 * a changed layout keeps linking to the results, a no-results page links only back into Google.
 */
export function googleNoResults(html: string, pageUrl: string): boolean {
  const doc = parseDocument(html);
  const area = resultsArea(doc);
  if (!area && !NO_RESULTS_TEXT.test(text(doc.body))) return false;
  for (const link of (area ?? doc).querySelectorAll('a[href]')) {
    if (link.closest(AD_BLOCKS) || link.closest('footer')) continue;
    const url = decodeGoogleHref(link.getAttribute('href')!, pageUrl);
    if (url && !GOOGLE_HOST.test(url.hostname) && url.host !== httpUrl(pageUrl)?.host) return false;
  }
  return true;
}

/**
 * Why a page is Google refusing rather than answering: the "unusual traffic" captcha (`/sorry/`),
 * the cookie-consent wall, or the shell that asks for JavaScript. Real results pages also carry a
 * `noscript` pointer to the enable-JS retry, so the shell counts only when no result was found and
 * the page has no results area (else it is a results page we could not read: see googleNoResults).
 */
export function googleRefusal(page: SerpPage, hits: SearchHit[]): string | undefined {
  const url = httpUrl(page.url);
  if (
    url?.pathname.startsWith('/sorry/') ||
    /<form[^>]+id=["']?captcha-form/i.test(page.html) ||
    page.statusCode === 429
  ) {
    return 'an "unusual traffic" captcha (/sorry/)';
  }
  if (hits.length > 0) return undefined;
  if (
    url?.hostname.startsWith('consent.') ||
    /<form[^>]+action=["'][^"']*consent\.google\./i.test(page.html)
  ) {
    return 'a cookie-consent wall';
  }
  if (page.html.includes('/httpservice/retry/enablejs') && !resultsArea(parseDocument(page.html)))
    return 'a page that requires JavaScript';
  return undefined;
}
