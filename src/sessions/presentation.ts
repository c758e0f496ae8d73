import { desktopChrome } from '../browser/index.ts';
import type { CdpConnection } from './cdp.ts';

/**
 * Runs on each page the service attaches to, on the service's own session for it, before the page
 * is let go; a hook added late runs at once for the pages already attached.
 */
export type AttachHook = (sessionId: string, targetId: string) => void;

/** The pages the service's own connection is attached to, and the hooks each attach runs. */
export interface PageAttachments {
  onAttach(hook: AttachHook): void;
}

/**
 * Presents every page of a session browser as Google Chrome (the brands of navigator.userAgentData
 * and the Sec-CH-UA headers, and no `HeadlessChrome` in the user agent), as the page pools do
 * (browser/fingerprint.ts). No flag sets client-hint brands, so the service's own connection
 * attaches to each page, popups included, while Chromium holds it before its first request, sends
 * the override on that session and lets the page go; the session stays attached, because Chromium
 * drops a session's overrides with it. The client's own sessions are untouched: what it sends
 * (its own user agent included) applies beside this. Pages are attached on the service's browser
 * session, which no client's channel sees (cdp.ts). Other work that must start with a page
 * (recording.ts) hooks into the same attach.
 */
export async function presentAsChrome(control: CdpConnection): Promise<PageAttachments> {
  const { product } = await control.send<{ product: string }>('Browser.getVersion');
  const fingerprint = desktopChrome(product.slice(product.indexOf('/') + 1));
  const pages = new Map<string, string>();
  const hooks: AttachHook[] = [];
  control.on(
    'Target.attachedToTarget',
    (params: { sessionId: string; targetInfo: { targetId: string; type: string } }) => {
      const { sessionId, targetInfo } = params;
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
      // A client's channel opening (Target.attachToBrowserTarget) is announced here too.
      if (targetInfo.type === 'page') {
        pages.set(sessionId, targetInfo.targetId);
        for (const hook of hooks) hook(sessionId, targetInfo.targetId);
      }
      void control.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
    },
  );
  control.on('Target.detachedFromTarget', (params: { sessionId: string }) => {
    pages.delete(params.sessionId);
  });
  await control.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: true,
    flatten: true,
    filter: [{ type: 'page' }],
  });
  return {
    onAttach(hook) {
      hooks.push(hook);
      for (const [sessionId, targetId] of pages) hook(sessionId, targetId);
    },
  };
}
