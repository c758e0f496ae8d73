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

/** The language every browser presents, in navigator.languages and Accept-Language alike. */
export const LANGUAGES = ['en-US', 'en'];

/**
 * What makes a browser present as the one a person started, for every browser this service runs
 * (page pools and session browsers): navigator.webdriver is false by the blink switch itself
 * rather than by a replaced getter, which detectors catch as a lie (a browser driven over
 * `--remote-debugging-pipe` sets it as `--enable-automation` does); languages come from the browser's own
 * settings for the same reason, in every world. None of these changes what a CDP client can do.
 */
export const PRESENTATION_FLAGS = [
  '--disable-blink-features=AutomationControlled',
  `--lang=${LANGUAGES[0]}`,
  `--accept-lang=${LANGUAGES.join(',')}`,
];

/**
 * What a desktop Chrome a person started does not show: Playwright's `--enable-automation`
 * (which sets navigator.webdriver and the infobar) is left out of its defaults.
 */
export const IGNORED_DEFAULT_ARGS = ['--enable-automation'];

/**
 * The flags of the page pools' browsers (both rungs), beyond the shared ones. `userAgent`, for
 * the stealth browser, is its default: pages get it again with their client hints by CDP
 * (fingerprint.ts), but service and shared workers start from the browser's default, which names
 * the full version otherwise. The headless shell is not given one: with a user agent of the
 * caller's it draws a window frame around the viewport (outer 1288x885 for 1280x800), while the
 * mouse events it synthesises still carry screen coordinates equal to the page's, which
 * brotector reports as `Input.cordinatesLeak`.
 */
export function poolFlags(
  proxyUrl: string,
  rung: 'browser' | 'browser-stealth',
  userAgent?: string,
): string[] {
  return [
    ...sharedFlags(proxyUrl),
    '--disable-dev-shm-usage',
    // We run as root in containers, where Chromium's sandbox cannot start.
    '--no-sandbox',
    ...PRESENTATION_FLAGS,
    ...(userAgent ? [`--user-agent=${userAgent}`] : []),
    ...(rung === 'browser-stealth'
      ? [
          '--window-size=1366,768',
          // No keyring on a server: without this Chromium may wait on one at start.
          '--password-store=basic',
          // Without a GPU, headful Chromium no longer falls back to software WebGL, and a desktop
          // Chrome with no WebGL at all is rare; the headless shell renders it this way already.
          '--enable-unsafe-swiftshader',
        ]
      : []),
  ];
}
