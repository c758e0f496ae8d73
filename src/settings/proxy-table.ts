import { isoCountry } from './countries.ts';

/**
 * The operator's upstream forward proxies, keyed by an upper-case ISO 3166-1 alpha-2 code, or by
 * `*` for the default used for countries without their own entry and for sessions with a proxy.
 */
export type ProxyTable = ReadonlyMap<string, URL>;

export const DEFAULT_PROXY_ROUTE = '*';

/** An entry as an error message may show it: the proxy's credentials are left out. */
function shown(entry: string): string {
  return entry.replace(/\/\/[^/]*@/, '//***@');
}

/** Parses `us=http://user:pass@host:port,de=...,*=...`; throws with a message naming the bad entry. */
export function parseProxyUrls(raw: string): Map<string, URL> {
  const table = new Map<string, URL>();
  for (const entry of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = entry.indexOf('=');
    const key = entry.slice(0, Math.max(at, 0)).trim();
    const value = entry.slice(at + 1).trim();
    // A key that looks like part of a URL (a password holding "=") is not echoed: it may be a secret.
    if (at < 0 || !key || !value || /[/:@]/.test(key))
      throw new Error(`entries must look like country=url, got "${shown(entry)}"`);
    const name = key === DEFAULT_PROXY_ROUTE ? key : isoCountry(key);
    if (!name) throw new Error(`"${key}" is not an ISO 3166-1 alpha-2 country code or *`);
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`the proxy of ${key} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`the proxy of ${key} must be an http:// or https:// forward proxy`);
    if (table.has(name)) throw new Error(`${key} is listed twice`);
    table.set(name, url);
  }
  return table;
}
