import type { Page } from 'playwright-core';
import type { PresentedLocale } from '../acquire/index.ts';

/**
 * The browser a pool page presents itself as: Google Chrome on desktop Linux, of the version the
 * engine really is. Built from the running browser rather than drawn from a fingerprint
 * generator, because every feature a page can probe is that engine's: a claimed version or
 * platform the engine is not is the incoherence detectors look for. Debian's Chromium names
 * itself `Chromium` (and the headless shell `HeadlessChrome`) where Chrome says `Google Chrome`,
 * and the headless shell puts `HeadlessChrome` in its user agent; both are replaced here.
 */
export interface Fingerprint {
  userAgent: string;
  /** CDP's `Emulation.UserAgentMetadata`: navigator.userAgentData and the Sec-CH-UA headers. */
  metadata: {
    brands: Array<{ brand: string; version: string }>;
    fullVersionList: Array<{ brand: string; version: string }>;
    fullVersion: string;
    platform: string;
    platformVersion: string;
    architecture: string;
    model: string;
    mobile: boolean;
    bitness: string;
    wow64: boolean;
    formFactors: string[];
  };
}

const GREASE_CHARS = [' ', '(', ':', '-', '.', '/', ')', ';', '=', '?', '_'];
const GREASE_VERSIONS = ['8', '99', '24'];
const BRAND_ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
] as const;

/**
 * The brand list Chrome itself makes for `major` (components/embedder_support/user_agent_utils.cc:
 * a GREASE brand and an order both seeded by the major version). Written out because no library
 * makes it; the headless shell's own list, read on 156, has the same GREASE brand and order.
 */
function chromeBrands(major: number, version: (major: string) => string) {
  const grease = {
    brand: `Not${GREASE_CHARS[major % 11]}A${GREASE_CHARS[(major + 1) % 11]}Brand`,
    version: GREASE_VERSIONS[major % 3]!,
  };
  const list = [
    { brand: grease.brand, version: version(grease.version) },
    { brand: 'Chromium', version: version(String(major)) },
    { brand: 'Google Chrome', version: version(String(major)) },
  ];
  const order = BRAND_ORDERS[major % 6]!;
  const out = new Array<{ brand: string; version: string }>(3);
  list.forEach((entry, i) => {
    out[order[i]!] = entry;
  });
  return out;
}

/** Desktop Chrome on Linux x86-64 for the browser's `version` (as Browser.version() gives it). */
export function desktopChrome(version: string): Fingerprint {
  const major = Number(version.split('.')[0]);
  return {
    // Chrome's reduced user agent: the minor version numbers are zero.
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`,
    metadata: {
      brands: chromeBrands(major, (v) => v),
      fullVersionList: chromeBrands(major, (v) => (v === String(major) ? version : `${v}.0.0.0`)),
      fullVersion: version,
      platform: 'Linux',
      // What Chrome on Linux reports.
      platformVersion: '',
      architecture: 'x86',
      model: '',
      mobile: false,
      bitness: '64',
      wow64: false,
      formFactors: ['Desktop'],
    },
  };
}

/**
 * Presents `fingerprint` and `locale`'s languages on `page` before it loads anything: its frames
 * and dedicated workers inherit the override (service workers and out-of-process iframes do not).
 * A CDP command of the page's own, so nothing runs in the page. Sent here, the languages also give
 * the headless shell's Accept-Language Chrome's q-values (its `--accept-lang` alone sends none).
 * With a country they reach workers by Playwright's `locale` context option (browser/browser-engine.ts),
 * which Playwright sends to each worker before letting it run; sent from here as well they would
 * race that release, which is why a country presents the one language the option can carry.
 */
export async function presentFingerprint(
  page: Page,
  fingerprint: Fingerprint,
  locale: PresentedLocale,
): Promise<void> {
  // The session stays attached for the page's life: Chromium drops a session's overrides with it.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setUserAgentOverride', {
    userAgent: fingerprint.userAgent,
    userAgentMetadata: fingerprint.metadata,
    acceptLanguage: locale.languages.join(','),
  });
}
