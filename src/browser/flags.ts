/**
 * The Chromium flags every browser this service runs gets (the page pools and session browsers
 * alike): every request goes through the egress proxy and its SSRF guard, and the browser sends
 * nothing of its own. Security rests on these, so they are defined here once.
 */

/** Every request through the egress proxy, loopback included, and no UDP around it. */
function egressFlags(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    // `<-loopback>` removes Chromium's implicit bypass, so not even loopback skips the guard.
    '--proxy-bypass-list=<-loopback>',
    // WebRTC sends UDP (STUN/TURN) straight to any address, around the proxy and its guard.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
}

/**
 * No traffic of the browser's own: Google's update, variations, safe-browsing, optimisation,
 * metrics and crash-report services would otherwise be called through the egress proxy on the
 * service's behalf. `--disable-features` is left to each launcher, because a second occurrence
 * of it replaces the first (Playwright passes its own list).
 */
const QUIET_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-component-extensions-with-background-pages',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--disable-sync',
  '--disable-breakpad',
  '--disable-default-apps',
  '--metrics-recording-only',
  '--no-pings',
  '--no-first-run',
  '--no-default-browser-check',
  '--no-service-autorun',
];

/** Features that call home; launchers that own `--disable-features` include these. */
export const QUIET_FEATURES = [
  'Translate',
  'OptimizationHints',
  'MediaRouter',
  'AutofillServerCommunication',
  'CertificateTransparencyComponentUpdater',
  'NetworkTimeServiceQuerying',
];

export function sharedFlags(proxyUrl: string): string[] {
  return [...egressFlags(proxyUrl), ...QUIET_FLAGS];
}
