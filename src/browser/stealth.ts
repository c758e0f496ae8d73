/**
 * The init scripts of the page pools: what neither a launch flag nor a CDP override can change.
 * Everything else a page sees (user agent, client hints, navigator.webdriver, languages) is set
 * by flags (flags.ts) and CDP (fingerprint.ts), which leave no script behind to be caught.
 * Hand-written and small on purpose: the npm stealth plugins are built for
 * puppeteer-extra/playwright-extra wrappers and patch far more than a real Chromium needs, and
 * fingerprint-injector's script replaces navigator wholesale with values of another browser.
 * Replacements are Proxies of the native functions, so Function.prototype.toString still reads
 * `[native code]`.
 */

/**
 * For `browser-stealth` (headful Chromium on Xvfb), in every frame and, through the driver,
 * in every dedicated worker before its own script (see patches/patchright-core+*.patch): the
 * WebGL strings replace SwiftShader's (a software renderer no desktop reports) with a common
 * Intel/Mesa pair, matching the Linux user agent, the same in pages and workers.
 */
export function stealthInitScript(): string {
  return `(() => {
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

/**
 * For `browser` (Debian's headless shell), in every frame: what the shell lacks next to a desktop
 * Chrome. Chrome lists the same five PDF viewer plugins and two mime types on every desktop
 * (fixed since Chrome 94); the shell lists none. The shell answers Notification.permission
 * 'denied' while the permissions API says 'prompt', which no Chrome does; a Chrome nobody asked
 * says 'default'.
 */
export function headlessInitScript(): string {
  return `(() => {
  const getter = (value) => ({ get: new Proxy(function () {}, { apply: () => value }), configurable: true, enumerable: true });
  if (navigator.plugins.length === 0) {
    const names = ['PDF Viewer', 'Chrome PDF Viewer', 'Chromium PDF Viewer', 'Microsoft Edge PDF Viewer', 'WebKit built-in PDF'];
    const mimeTypes = Object.create(MimeTypeArray.prototype);
    const plugins = Object.create(PluginArray.prototype);
    const mimes = [['application/pdf', 'pdf'], ['text/pdf', 'pdf']].map(([type, suffixes]) => {
      const m = Object.create(MimeType.prototype);
      Object.defineProperties(m, { type: getter(type), suffixes: getter(suffixes), description: getter('Portable Document Format') });
      return m;
    });
    const list = names.map((name) => {
      const p = Object.create(Plugin.prototype);
      Object.defineProperties(p, {
        name: getter(name), filename: getter('internal-pdf-viewer'), description: getter('Portable Document Format'), length: getter(mimes.length),
      });
      mimes.forEach((m, i) => Object.defineProperty(p, i, { value: m, enumerable: true }));
      p.item = (i) => mimes[i] ?? null;
      p.namedItem = (n) => mimes.find((m) => m.type === n) ?? null;
      return p;
    });
    mimes.forEach((m) => Object.defineProperty(m, 'enabledPlugin', getter(list[0])));
    list.forEach((p, i) => Object.defineProperty(plugins, i, { value: p, enumerable: true }));
    mimes.forEach((m, i) => Object.defineProperty(mimeTypes, i, { value: m, enumerable: true }));
    Object.defineProperties(plugins, { length: getter(list.length) });
    Object.defineProperties(mimeTypes, { length: getter(mimes.length) });
    plugins.item = (i) => list[i] ?? null;
    plugins.namedItem = (n) => list.find((p) => p.name === n) ?? null;
    plugins.refresh = () => {};
    mimeTypes.item = (i) => mimes[i] ?? null;
    mimeTypes.namedItem = (n) => mimes.find((m) => m.type === n) ?? null;
    Object.defineProperty(Navigator.prototype, 'plugins', getter(plugins));
    Object.defineProperty(Navigator.prototype, 'mimeTypes', getter(mimeTypes));
    Object.defineProperty(Navigator.prototype, 'pdfViewerEnabled', getter(true));
  }
  if (globalThis.Notification && Notification.permission === 'denied') {
    Object.defineProperty(Notification, 'permission', getter('default'));
  }
})();`;
}
