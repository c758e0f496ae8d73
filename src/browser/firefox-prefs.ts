/**
 * The Firefox preferences every Firefox this service runs gets, beside the automation defaults
 * of @puppeteer/browsers' `createProfile`: every request through the egress proxy and its SSRF
 * guard (loopback included), no UDP around it, and no traffic of the browser's own. Security
 * rests on these, so they are defined here once, as the Chromium flags are (flags.ts).
 */
export function firefoxPrefs(proxyUrl: string): Record<string, string | number | boolean> {
  const proxy = new URL(proxyUrl);
  const host = proxy.hostname;
  const port = Number(proxy.port);
  return {
    'network.proxy.type': 1,
    'network.proxy.http': host,
    'network.proxy.http_port': port,
    'network.proxy.ssl': host,
    'network.proxy.ssl_port': port,
    'network.proxy.share_proxy_settings': true,
    'network.proxy.no_proxies_on': '',
    // Without it Firefox sends localhost and 127.0.0.1 straight out, around the guard.
    'network.proxy.allow_hijacking_localhost': true,
    'network.proxy.socks_remote_dns': true,
    // WebRTC sends UDP (STUN/TURN) straight to any address, around the proxy.
    'media.peerconnection.enabled': false,
    'network.dns.disablePrefetch': true,
    'network.prefetch-next': false,
    'network.predictor.enabled': false,
    'network.captive-portal-service.enabled': false,
    'network.connectivity-service.enabled': false,
    'network.trr.mode': 5,
    'security.OCSP.enabled': 0,
    'security.remote_settings.crlite_filters.enabled': false,
    'toolkit.telemetry.enabled': false,
    'toolkit.telemetry.server': '',
    'browser.ping-centre.telemetry': false,
    'browser.newtabpage.activity-stream.feeds.telemetry': false,
    'browser.newtabpage.activity-stream.telemetry': false,
    'extensions.blocklist.enabled': false,
    'extensions.getAddons.showPane': false,
    'browser.discovery.enabled': false,
    'browser.region.update.enabled': false,
    'browser.region.network.url': '',
    'geo.provider.network.url': '',
    'identity.fxaccounts.enabled': false,
    'browser.aboutHomeSnippets.updateUrl': '',
    // Remote settings (blocklists, experiments, suggestions) from a data: URL: nothing to fetch.
    // Release builds ignore this unless FIREFOX_ENV is set.
    'services.settings.server': 'data:,#remote-settings-dummy/v1',
    // No content process started ahead of need, nor kept once its pages are gone: a session or a
    // pool page opens a few, and each spare one holds 15-20 MiB.
    'dom.ipc.processPrelaunch.enabled': false,
    'dom.ipc.keepProcessesAlive.web': 0,
    // createProfile's default opens every local file to every other; a session keeps them apart.
    'security.fileuri.strict_origin_policy': true,
  };
}

/**
 * The environment every Firefox this service runs gets: release builds let the remote settings
 * server be replaced (firefoxPrefs) only with this set; otherwise they sync with Mozilla's at start.
 */
export const FIREFOX_ENV: Record<string, string> = { MOZ_REMOTE_SETTINGS_DEVTOOLS: '1' };
