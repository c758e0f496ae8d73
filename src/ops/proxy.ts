import { type ProxyRoute, proxyCountryRefusal, proxyRouteFor } from '../acquire/index.ts';
import type { Config } from '../config.ts';
import type { OpContext } from './context.ts';

/** The API's proxy object: a geo-targeted request through an upstream proxy of that country. */
export interface ProxyRequest {
  country: string;
}

/** Why `proxy` cannot be served by this server (no proxy for its country), for a 400; undefined when it can. */
export function proxyRefusal(config: Config, proxy: ProxyRequest | undefined): string | undefined {
  return proxy ? proxyCountryRefusal(config.proxyUrls, proxy.country) : undefined;
}

/**
 * The upstream route a request asked for, undefined when it asked for none. Throws when the
 * country has no proxy: routes refuse that up front, but a queued job can outlive a config change.
 */
export function proxyRoute(
  ctx: OpContext,
  proxy: ProxyRequest | undefined,
): ProxyRoute | undefined {
  if (!proxy) return undefined;
  const refusal = proxyRefusal(ctx.services.config, proxy);
  if (refusal) throw new Error(`proxy.country: ${refusal}`);
  return proxyRouteFor(ctx.services.config.proxyUrls, proxy.country);
}
