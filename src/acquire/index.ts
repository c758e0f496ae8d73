export { HttpEngine, type HttpEngineOptions, type HttpResponse, type HttpStream, type FetchOptions } from './http-engine.ts';
export { FetchFailure } from './errors.ts';
export { decodeBody, charsetFromContentType, type Decoded } from './decode.ts';
export { BlockedDestinationError, addressRefusal, checkUrl, guardedLookup, resolveChecked, type NetworkPolicy } from './ssrf.ts';
export { browserHeaders, BROWSER_USER_AGENT } from './headers.ts';
export { awaitingRender, detectBlock, needsJavaScript, visibleText, type BlockVerdict } from './page-signals.ts';
export { startEgressProxy, type EgressLane, type EgressLimits, type EgressProxy } from './egress-proxy.ts';
export { isoCountry } from './countries.ts';
export { defaultProxyRoute, parseProxyUrls, proxyCountryRefusal, proxyRouteFor, type ProxyRoute, type ProxyTable } from './geo-proxy.ts';
