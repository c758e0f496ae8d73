import type { Readable, Writable } from 'node:stream';
import { PRESENTATION_FLAGS, QUIET_FEATURES, sharedFlags } from '../browser/index.ts';
import { CdpConnection } from './cdp.ts';
import { writeSessionPolicy } from './chromium-policy.ts';
import { type PageAttachments, presentAsChrome } from './presentation.ts';
import { MANAGED_POLICY_DIR, SANDBOX_PROXY_URL } from './sandbox.ts';
import {
  type BrowserFamily,
  type BrowserProcess,
  type LaunchOptions,
  launchSandboxed,
} from './sandboxed.ts';

/** A running Chromium: its debugging pipe and the pages the service is attached to. */
export interface ChromiumBrowser extends BrowserProcess {
  family: 'chromium';
  /**
   * The browser's only DevTools connection, its debugging pipe: the service's control messages
   * and, through channels, every client's (cdp.ts). It closing means the browser is gone.
   */
  control: CdpConnection;
  /** The pages the service is attached to, for work that starts with each (recording.ts). */
  pages: PageAttachments;
}

function chromiumArgs(o: LaunchOptions, profile: string): string[] {
  const args = [
    // The pipe is the only DevTools endpoint: no port any other local process could reach.
    '--remote-debugging-pipe',
    `--user-data-dir=${profile}`,
    // The egress proxy as the sandbox offers it (sandbox.ts); it leads to `proxyUrl`.
    ...sharedFlags(SANDBOX_PROXY_URL),
    // Present as a person's browser, as the page pools do; nothing a client relies on changes.
    ...PRESENTATION_FLAGS,
    `--disable-features=${QUIET_FEATURES.join(',')}`,
    // Debian's launcher enables remote extension updates; a session has no extensions to update.
    '--disable-extensions',
    // Chromium's own sandbox needs privileges the service does not have; sandbox.ts confines the whole browser instead.
    '--no-sandbox',
    '--password-store=basic',
    '--use-mock-keychain',
    `--window-size=${o.width},${o.height}`,
  ];
  if (o.headless) args.push('--headless');
  else args.push('--window-position=0,0', '--kiosk', '--test-type', '--disable-gpu');
  args.push('about:blank');
  return args;
}

/** Ready once the browser answers on its pipe; a browser that exits or stays silent fails the launch. */
async function waitForBrowser(
  control: CdpConnection,
  timeoutMs: number,
  tail: () => string,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`browser did not answer within ${timeoutMs} ms: ${tail()}`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([control.send('Browser.getVersion'), timeout]);
  } catch (err) {
    throw control.closed ? new Error(`browser exited before it was ready: ${tail()}`) : err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Lets the browser save downloads into the files folder under the names sites give them. The
 * headless shell reads no policy (chromium-policy.ts) and would refuse downloads without this. A
 * client's own setDownloadBehavior replaces it (with the same folder, cdp-policy.ts), and the
 * browser forgets that when the client leaves, leaving downloads refused; so it is set again then.
 */
export function allowDownloads(control: CdpConnection, files: string): Promise<unknown> {
  return control.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: files });
}

/** The Chromium family: its managed policy, flags and debugging pipe. */
function chromium(o: LaunchOptions): BrowserFamily<CdpConnection> {
  return {
    policyAt: MANAGED_POLICY_DIR,
    writePolicy: writeSessionPolicy,
    prepareProfile: async () => undefined,
    args: (profile) => chromiumArgs(o, profile),
    env: {},
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    async connect(browser, _dir, timeoutMs, tail) {
      const control = new CdpConnection(
        browser.child.stdio[3] as Writable,
        browser.child.stdio[4] as Readable,
      );
      await waitForBrowser(control, timeoutMs, tail);
      return control;
    },
    close: (control) => control.send('Browser.close'),
  };
}

export async function launchChromium(o: LaunchOptions): Promise<ChromiumBrowser> {
  const launched = await launchSandboxed(o, chromium(o));
  try {
    await allowDownloads(launched.control, launched.files);
    const pages = await presentAsChrome(launched.control);
    return { family: 'chromium', ...launched, pages };
  } catch (err) {
    await launched.dispose();
    throw err;
  }
}
