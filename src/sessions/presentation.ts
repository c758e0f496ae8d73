import { desktopChrome } from '../browser/index.ts';
import type { CdpConnection } from './cdp.ts';

/**
 * Presents every page of a session browser as Google Chrome (the brands of navigator.userAgentData
 * and the Sec-CH-UA headers, and no `HeadlessChrome` in the user agent), as the page pools do
 * (browser/fingerprint.ts). No flag sets client-hint brands, so the service's own connection
 * attaches to each page, popups included, while Chromium holds it before its first request, sends
 * the override on that session and lets the page go; the session stays attached, because Chromium
 * drops a session's overrides with it. The client's own sessions are untouched: what it sends
 * (its own user agent included) applies beside this. Pages are attached on the service's browser
 * session, which no client's channel sees (cdp.ts).
 */
export async function presentAsChrome(control: CdpConnection): Promise<void> {
  const { product } = await control.send<{ product: string }>('Browser.getVersion');
  const fingerprint = desktopChrome(product.slice(product.indexOf('/') + 1));
  control.on('Target.attachedToTarget', (params: { sessionId: string }) => {
    const { sessionId } = params;
    // Sent together, not one after the other's answer: a session answers a held page's override
    // only once the page runs, and Chromium applies a session's commands in order, so the
    // override is in place before the page's first request.
    void control
      .send(
        'Emulation.setUserAgentOverride',
        { userAgent: fingerprint.userAgent, userAgentMetadata: fingerprint.metadata },
        sessionId,
      )
      .catch(() => undefined);
    void control.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
  });
  await control.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: true,
    flatten: true,
    filter: [{ type: 'page' }],
  });
}
