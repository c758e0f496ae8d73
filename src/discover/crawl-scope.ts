import { RE2JS } from 're2js';
import { isPageUrl, normalizeUrl } from './normalize.ts';
import { siteScope } from './scope.ts';

export interface CrawlScopeInput {
  url: string;
  includeSubdomains: boolean;
  ignoreQueryParameters: boolean;
  /** Regular expressions (RE2 syntax); a path must match one of them (when any are given). */
  includePaths: string[];
  /** Regular expressions (RE2 syntax); a path matching any of them is left out. */
  excludePaths: string[];
  /** Only the start URL's path and the paths below it (absent in crawls stored before it existed). */
  stayUnderStartPath?: boolean;
}

/** Whether a path is the start path or below it, by whole segments: /docs holds /docs/a, not /docsx. */
function underPath(start: string): (path: string) => boolean {
  if (start === '/') return () => true;
  return (path) => path === start || path.startsWith(`${start}/`);
}

/**
 * A caller's path pattern, compiled by RE2JS rather than RegExp: RE2 matches in time linear in
 * the path, so a pattern such as `(a+)+$` cannot stall the process that tests every link of every
 * page against it. Throws (with the parser's message) for a pattern RE2 does not accept.
 */
export function pathPattern(pattern: string): (path: string) => boolean {
  const re = RE2JS.compile(pattern);
  return (path) => re.matcher(path).find();
}

/**
 * Which URLs a crawl follows, in the one spelling it dedupes by: the map's normalisation and
 * site scope, pages rather than assets, the start path when asked, and the caller's path patterns
 * (the start URL is exempt from those, as it was asked for by name).
 */
export function crawlScope(
  input: CrawlScopeInput,
): (raw: string, base?: string) => string | undefined {
  const inSite = siteScope(new URL(input.url), input.includeSubdomains);
  const include = input.includePaths.map(pathPattern);
  const exclude = input.excludePaths.map(pathPattern);
  const opts = { ignoreQuery: input.ignoreQueryParameters };
  const inStartPath = input.stayUnderStartPath
    ? underPath(normalizeUrl(input.url, undefined, opts)?.pathname ?? '/')
    : () => true;
  return (raw, base) => {
    const url = normalizeUrl(raw, base, opts);
    if (!url || !inSite(url) || !isPageUrl(url)) return undefined;
    const path = url.pathname;
    if (!inStartPath(path)) return undefined;
    if (include.length > 0 && !include.some((matches) => matches(path))) return undefined;
    if (exclude.some((matches) => matches(path))) return undefined;
    return url.href;
  };
}

/** The start URL's own spelling (the key that makes it fetched once), or undefined when it is not a crawlable URL. */
export function crawlStartKey(url: string, ignoreQueryParameters: boolean): string | undefined {
  return normalizeUrl(url, undefined, { ignoreQuery: ignoreQueryParameters })?.href;
}
