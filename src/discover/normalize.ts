export interface NormalizeOptions {
  /** Drop the whole query string (the API's ignoreQueryParameters). */
  ignoreQuery: boolean;
}

// Parameters that only say where a visitor came from; two URLs differing in them are one page.
const TRACKING_PARAMS = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'ref_src',
  'srsltid',
]);
const TRACKING_PREFIXES = ['utm_', 'pk_', 'mtm_'];

function isTracking(name: string): boolean {
  const n = name.toLowerCase();
  return TRACKING_PARAMS.has(n) || TRACKING_PREFIXES.some((p) => n.startsWith(p));
}

/**
 * Longest URL a map or crawl keeps, as the sitemap protocol allows. Every URL found is split into
 * words for ranking and matched against the caller's path patterns: a page that links 20 kB paths
 * must not turn that per-link work into seconds. Longer URLs are left out as if out of scope.
 */
export const MAX_URL_CHARS = 2048;

/**
 * The one spelling of a URL that a map reports and dedupes by: http(s) only; scheme and host
 * lower-cased and default ports dropped (the WHATWG parser does both); no fragment; no tracking
 * parameters, the rest sorted (or no query at all); no trailing slash except the root's.
 * Path case is kept: servers may tell /Page from /page.
 */
export function normalizeUrl(
  raw: string,
  base: string | URL | undefined,
  opts: NormalizeOptions,
): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  url.hash = '';
  if (opts.ignoreQuery) {
    url.search = '';
  } else if (url.search) {
    const kept = [...url.searchParams]
      .filter(([k]) => !isTracking(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    url.search = new URLSearchParams(kept).toString();
  }
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) {
    // By hand: /\/+$/ retries from every slash of a long run of them, quadratic in the run.
    const path = url.pathname;
    let end = path.length;
    while (end > 0 && path[end - 1] === '/') end--;
    url.pathname = path.slice(0, end) || '/';
  }
  return url.href.length > MAX_URL_CHARS ? undefined : url;
}

// Files that are not pages a reader would visit: media, styles, scripts, fonts, archives, feeds.
const ASSET_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'avif',
  'svg',
  'ico',
  'bmp',
  'tif',
  'tiff',
  'heic',
  'css',
  'js',
  'mjs',
  'cjs',
  'map',
  'wasm',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'mp3',
  'mp4',
  'm4a',
  'm4v',
  'webm',
  'ogg',
  'oga',
  'ogv',
  'wav',
  'flac',
  'mov',
  'avi',
  'mkv',
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  '7z',
  'rar',
  'tar',
  'exe',
  'dmg',
  'msi',
  'apk',
  'deb',
  'rpm',
  'iso',
  'bin',
  'xml',
  'rss',
  'atom',
  'json',
]);

/** True for URLs that name a page (HTML, or a document such as a PDF) rather than an asset. */
export function isPageUrl(url: URL): boolean {
  const path = url.pathname;
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  if (dot <= 0) return true;
  return !ASSET_EXTENSIONS.has(last.slice(dot + 1).toLowerCase());
}
