import { isPageUrl, normalizeUrl } from './normalize.ts';
import { pathMatcher } from './path-matcher.ts';
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
 * Which URLs a crawl follows, in the one spelling it dedupes by: the map's normalisation (URLs
 * over MAX_URL_CHARS are out), site scope, pages rather than assets, and the start path when
 * asked. The caller's path patterns are applied apart, in bulk (crawlKeys).
 */
function siteKeys(input: CrawlScopeInput): (raw: string, base?: string) => URL | undefined {
  const inSite = siteScope(new URL(input.url), input.includeSubdomains);
  const opts = { ignoreQuery: input.ignoreQueryParameters };
  const inStartPath = input.stayUnderStartPath
    ? underPath(normalizeUrl(input.url, undefined, opts)?.pathname ?? '/')
    : () => true;
  return (raw, base) => {
    const url = normalizeUrl(raw, base, opts);
    if (!url || !inSite(url) || !isPageUrl(url)) return undefined;
    const path = url.pathname;
    return inStartPath(path) ? url : undefined;
  };
}

/**
 * The spelling each found URL is crawled by, or undefined when the crawl does not follow it: out
 * of site scope (siteKeys), or its path not passing the caller's patterns. Patterns (RE2, so
 * linear in the path, with their compiled size capped at the request) are matched on the path
 * matcher's thread under its deadline; past it this throws PathMatchDeadlineError.
 */
export async function crawlKeys(
  input: CrawlScopeInput,
  found: ReadonlyArray<{ url: string; base: string }>,
  run: { key: string; signal?: AbortSignal },
): Promise<Array<string | undefined>> {
  const inScope = siteKeys(input);
  const urls = found.map((f) => inScope(f.url, f.base));
  if (input.includePaths.length === 0 && input.excludePaths.length === 0)
    return urls.map((u) => u?.href);
  const paths = [...new Set(urls.flatMap((u) => (u ? [u.pathname] : [])))];
  const verdicts = await pathMatcher().filter(
    { include: input.includePaths, exclude: input.excludePaths, paths },
    run.key,
    run.signal,
  );
  const passes = new Map(paths.map((p, i) => [p, verdicts[i]]));
  return urls.map((u) => (u && passes.get(u.pathname) ? u.href : undefined));
}

/** Why each of a request's path patterns cannot be used, or null; compiled off the event loop in `caller`'s turn. */
export function pathPatternProblems(
  patterns: string[],
  caller: string,
): Promise<Array<string | null>> {
  return pathMatcher().problems(patterns, caller);
}

/** The start URL's own spelling (the key that makes it fetched once), or undefined when it is not a crawlable URL. */
export function crawlStartKey(url: string, ignoreQueryParameters: boolean): string | undefined {
  return normalizeUrl(url, undefined, { ignoreQuery: ignoreQueryParameters })?.href;
}
