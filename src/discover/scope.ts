import { parse } from 'tldts';

/**
 * Which hosts belong to the mapped site. Without subdomains: the start host, with or without
 * `www.`. With subdomains: every host under the start host's registrable domain (public-suffix
 * aware, so `a.co.uk` and `b.co.uk` are different sites). IP addresses and single-label hosts
 * have no registrable domain: only the host itself belongs.
 */
export function siteScope(start: URL, includeSubdomains: boolean): (url: URL) => boolean {
  const host = start.hostname.toLowerCase();
  const info = parse(host);
  const domain = info.isIp ? null : info.domain;
  const bare = host.startsWith('www.') ? host.slice(4) : host;
  return (url: URL) => {
    const h = url.hostname.toLowerCase();
    if (h === host) return true;
    if (!domain) return false;
    if (includeSubdomains) return h === domain || h.endsWith(`.${domain}`);
    return h === bare || h === `www.${bare}`;
  };
}
