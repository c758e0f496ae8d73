import { DEFAULT_PROXY_ROUTE, isoCountry, type ProxyTable } from '../settings/index.ts';

/** The upstream proxy one request goes through; `name` is the table key that chose it. */
export interface ProxyRoute {
  name: string;
  upstream: URL;
  /** The country the request asked to be seen from (upper case): what its pages present (geo-locale.ts). */
  country?: string;
}

/** The route for `country`: its own proxy, else the default one, else none. */
export function proxyRouteFor(table: ProxyTable, country: string): ProxyRoute | undefined {
  const code = isoCountry(country);
  const name =
    code && table.has(code)
      ? code
      : table.has(DEFAULT_PROXY_ROUTE)
        ? DEFAULT_PROXY_ROUTE
        : undefined;
  return name
    ? { name, upstream: table.get(name)!, ...(code ? { country: code } : {}) }
    : undefined;
}

/** The `*` route, used by sessions that ask for a proxy without naming a country. */
export function defaultProxyRoute(table: ProxyTable): ProxyRoute | undefined {
  const upstream = table.get(DEFAULT_PROXY_ROUTE);
  return upstream ? { name: DEFAULT_PROXY_ROUTE, upstream } : undefined;
}

/** Why a request for `country` cannot be served, for the caller to see; undefined when it can. */
export function proxyCountryRefusal(table: ProxyTable, country: string): string | undefined {
  if (!isoCountry(country)) return `"${country}" is not an ISO 3166-1 alpha-2 country code`;
  if (proxyRouteFor(table, country)) return undefined;
  const countries = [...table.keys()].map((k) => k.toLowerCase()).sort();
  return countries.length === 0
    ? 'no geo proxy is configured on this server (WEBDATA_PROXY_URLS is empty)'
    : `no proxy is configured for "${country.toLowerCase()}"; configured countries: ${countries.join(', ')}`;
}
