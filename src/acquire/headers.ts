/**
 * Request headers of a desktop Google Chrome on Linux opening a page from the address bar, in
 * Chrome's order and spelling. Sites serve their real page to what looks like a browser and a
 * stripped or blocked one to what looks like a script, and some read the order and the name case
 * of the headers, not only their values.
 *
 * Written out rather than drawn from header-generator: its headers are sampled from a model of
 * browsers seen in the wild (the newest Chrome in it is 149), so its values vary from call to call
 * and trail the Chromium this server runs; this table is what Debian's Chromium sends, which
 * test/http/http-rung-headers.test.ts captures and compares in the same run, with the one brand a
 * Google Chrome build adds. The version is the one of the browsers the other rungs run, so a site
 * that sees both hears one story.
 */
export const CHROME_VERSION = '156';

export const BROWSER_USER_AGENT = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_VERSION}.0.0.0 Safari/537.36`;

/**
 * Chrome's brand list for this major version: the greased brand and the order of the three are
 * Chromium's own choice for the version (GenerateBrandVersionList seeds both with it), as
 * Chromium sends them here plus "Google Chrome" where a Chrome build puts it.
 */
const SEC_CH_UA = `"Not:A-Brand";v="8", "Chromium";v="${CHROME_VERSION}", "Google Chrome";v="${CHROME_VERSION}"`;

/** After Host and Connection, which the HTTP client writes itself. */
const CHROME_NAVIGATION: ReadonlyArray<readonly [string, string]> = [
  ['sec-ch-ua', SEC_CH_UA],
  ['sec-ch-ua-mobile', '?0'],
  ['sec-ch-ua-platform', '"Linux"'],
  ['Upgrade-Insecure-Requests', '1'],
  ['User-Agent', BROWSER_USER_AGENT],
  [
    'Accept',
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/jxl,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
  ],
  ['Sec-Fetch-Site', 'none'],
  ['Sec-Fetch-Mode', 'navigate'],
  ['Sec-Fetch-User', '?1'],
  ['Sec-Fetch-Dest', 'document'],
  ['Accept-Encoding', 'gzip, deflate, br, zstd'],
  ['Accept-Language', 'en-US,en;q=0.9'],
];

/**
 * Chrome ends an HTTP/2 request with its priority (RFC 9218); over HTTP/1.1 it sends none. Which
 * protocol a connection takes is settled inside the HTTP client, so this goes by the scheme: an
 * https site nearly always speaks HTTP/2 with Chrome, a plain http one never does.
 */
const H2_PRIORITY: readonly [string, string] = ['priority', 'u=0, i'];

/**
 * Chrome's navigation headers for `url` with the caller's, as the flat name/value list an HTTP
 * client sends in order: a caller's header replaces Chrome's of the same name where it stands,
 * others follow.
 */
export function browserHeaders(url: URL, extra: Record<string, string> = {}): string[] {
  const own = new Map(Object.entries(extra).map(([k, v]) => [k.toLowerCase(), v]));
  const out: string[] = [];
  const chrome =
    url.protocol === 'https:' ? [...CHROME_NAVIGATION, H2_PRIORITY] : CHROME_NAVIGATION;
  for (const [name, value] of chrome) {
    const key = name.toLowerCase();
    out.push(name, own.get(key) ?? value);
    own.delete(key);
  }
  for (const [name, value] of own) out.push(name, value);
  return out;
}
