export {
  type AcquiredPage,
  acquiredFromBrowser,
  acquiredFromDownload,
  acquiredFromHttp,
} from './acquired-page.ts';
export { type BodyKind, bodyKind } from './body-kind.ts';
export { decodeBody } from './decode.ts';
export {
  type EgressLane,
  type EgressLimits,
  type EgressProxy,
  startEgressProxy,
} from './egress-proxy.ts';
export { FetchFailure } from './errors.ts';
export { DEFAULT_LOCALE, type PresentedLocale, presentedLocale } from './geo-locale.ts';
export { type ProxyRoute, proxyCountryRefusal, proxyRouteFor } from './geo-proxy.ts';
export {
  type FetchOptions,
  HttpEngine,
  type HttpResponse,
  type HttpStream,
} from './http-engine.ts';
export {
  addressRefusal,
  BlockedDestinationError,
  checkUrl,
  guardedLookup,
  type NetworkPolicy,
  resolveChecked,
} from './ssrf.ts';
