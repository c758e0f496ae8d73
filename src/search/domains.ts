/**
 * Domain filters. A domain matches itself and its subdomains, the way `site:` does, so the
 * filter applied after the provider keeps exactly the promise the operator made to the provider.
 */
export function hostMatches(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === domain || h.endsWith(`.${domain}`);
}

export function allowedByDomains(url: URL, include: string[], exclude: string[]): boolean {
  if (include.length > 0 && !include.some((d) => hostMatches(url.hostname, d))) return false;
  return !exclude.some((d) => hostMatches(url.hostname, d));
}

/** `query site:a OR site:b -site:c`: the operator syntax Google, Bing, Brave and SearXNG understand. */
export function withSiteOperators(query: string, include: string[], exclude: string[]): string {
  const parts = [query];
  if (include.length > 0) parts.push(include.map((d) => `site:${d}`).join(' OR '));
  for (const d of exclude) parts.push(`-site:${d}`);
  return parts.join(' ');
}

/**
 * Reduces what a user wrote (`https://Example.com/path`, `*.example.com`, `example.com.`) to the
 * bare host name providers and the filter compare; undefined when nothing host-like is left.
 */
export function normaliseDomain(raw: string): string | undefined {
  let value = raw.trim().toLowerCase();
  value = value.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^\*\./, '');
  value = value.split(/[/?#]/)[0]!.replace(/\.$/, '');
  if (value.includes('@') || value.includes(':')) return undefined;
  if (
    !/^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*$/.test(
      value,
    )
  )
    return undefined;
  return value;
}
