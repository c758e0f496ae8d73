import { httpUrl, parseDocument, text } from './serp-html.ts';
import type { SearchHit, SerpPage } from './types.ts';

/** Parser for Bing's results page, on linkedom: organic results are `li.b_algo`, ads `li.b_ad`. */

const SNIPPET = '.b_caption p, p[class^="b_lineclamp"], .b_algoSlug, .b_snippet';
const BING_HOST = /(^|\.)bing\.(com|net)$/;
const INTERNAL_PATH =
  /^\/(search|ck\/a|aclk|images\/search|videos\/search|news\/search|shop|travel\/search|copilotsearch|maps)$/;

/**
 * Bing wraps result links in `/ck/a?...&u=a1<base64url>`; the target is the base64url text after
 * the two-character `a1` prefix. A target that decodes to a relative link is Bing's own page.
 */
export function decodeBingHref(href: string, pageUrl: string): URL | undefined {
  const url = httpUrl(href, pageUrl);
  if (!url) return undefined;
  if (url.pathname !== '/ck/a') return url;
  const u = url.searchParams.get('u');
  if (!u?.startsWith('a1')) return undefined;
  const decoded = Buffer.from(u.slice(2), 'base64url').toString('utf8');
  return /^https?:\/\//i.test(decoded) ? httpUrl(decoded) : undefined;
}

export function isBingInternal(url: URL, serpHost?: string): boolean {
  return (
    (BING_HOST.test(url.hostname.toLowerCase()) || url.host === serpHost) &&
    INTERNAL_PATH.test(url.pathname)
  );
}

export function parseBingSerp(html: string, pageUrl: string): SearchHit[] {
  const doc = parseDocument(html);
  const serpHost = httpUrl(pageUrl)?.host;
  const hits: SearchHit[] = [];
  for (const item of doc.querySelectorAll('li.b_algo')) {
    const link = item.querySelector('h2 a[href]');
    if (!link) continue;
    const url = decodeBingHref(link.getAttribute('href')!, pageUrl);
    if (!url || isBingInternal(url, serpHost)) continue;
    hits.push({ url: url.href, title: text(link), description: text(item.querySelector(SNIPPET)) });
  }
  return hits;
}

/**
 * Whether a page from which no result was parsed is Bing saying it found nothing (`li.b_no`,
 * "There are no results for", or an empty `#b_results`) rather than a page whose layout the parser
 * no longer reads: only the former holds no link leaving Bing outside ads and footer.
 */
export function bingNoResults(html: string, pageUrl: string): boolean {
  const doc = parseDocument(html);
  const area = doc.querySelector('#b_results');
  if (!area && !doc.querySelector('.b_no') && !/There are no results for/i.test(text(doc.body)))
    return false;
  for (const link of (area ?? doc).querySelectorAll('a[href]')) {
    if (link.closest('.b_ad, footer, #b_footer')) continue;
    const url = decodeBingHref(link.getAttribute('href')!, pageUrl);
    if (url && !BING_HOST.test(url.hostname) && url.host !== httpUrl(pageUrl)?.host) return false;
  }
  return true;
}

/** Bing's challenge pages: its captcha (`/challenge`, `#b_captcha`) or a 429 answer with no results. */
export function bingRefusal(page: SerpPage, hits: SearchHit[]): string | undefined {
  if (hits.length > 0) return undefined;
  const url = httpUrl(page.url);
  if (page.statusCode === 429) return 'too many requests (HTTP 429)';
  if (url?.pathname.includes('/challenge') || /id=["']?b_captcha/i.test(page.html))
    return 'a captcha';
  return undefined;
}
