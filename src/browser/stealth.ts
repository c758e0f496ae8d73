/**
 * What turns Debian's full Chromium, headful under Xvfb, into a browser that looks like a person's:
 * launch flags that drop the automation switches, and one init script that evens out what Xvfb's
 * software GPU and the emulated locale give away. Hand-written and small on purpose: the npm
 * stealth plugins are built for puppeteer-extra/playwright-extra wrappers and patch far more
 * than a headful real Chromium needs.
 */

export const STEALTH_LOCALE = 'en-US';
export const STEALTH_LANGUAGES = ['en-US', 'en'];

/** Flags for the stealth browser; `--enable-automation` is removed from Playwright's defaults too. */
export const STEALTH_ARGS = [
  '--disable-blink-features=AutomationControlled',
  `--lang=${STEALTH_LOCALE}`,
  '--window-size=1366,768',
  // No keyring on a server: without this Chromium may wait on one at start.
  '--password-store=basic',
];

export const STEALTH_IGNORED_DEFAULT_ARGS = ['--enable-automation'];

/**
 * Runs in every frame before the page's own scripts. navigator.webdriver is already false without
 * the automation flag; it is pinned anyway in case a later Chromium changes the default. The
 * WebGL strings replace SwiftShader's (a software renderer no desktop reports) with a common
 * Intel/Mesa pair, matching the Linux user agent. Replacements are Proxies of the native
 * functions so Function.prototype.toString still reads `[native code]`.
 */
export function stealthInitScript(): string {
  const languages = JSON.stringify(STEALTH_LANGUAGES);
  return `(() => {
  const define = (proto, prop, value) => {
    try { Object.defineProperty(proto, prop, { get: new Proxy(function () {}, { apply: () => value }), configurable: true }); } catch {}
  };
  define(Navigator.prototype, 'webdriver', false);
  define(Navigator.prototype, 'languages', Object.freeze(${languages}));
  define(Navigator.prototype, 'language', ${JSON.stringify(STEALTH_LANGUAGES[0])});
  const VENDOR = 'Google Inc. (Intel)';
  const RENDERER = 'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)';
  for (const ctx of [globalThis.WebGLRenderingContext, globalThis.WebGL2RenderingContext]) {
    if (!ctx) continue;
    const original = ctx.prototype.getParameter;
    ctx.prototype.getParameter = new Proxy(original, {
      apply(target, self, args) {
        if (args[0] === 0x9245) return VENDOR;
        if (args[0] === 0x9246) return RENDERER;
        return Reflect.apply(target, self, args);
      },
    });
  }
})();`;
}
