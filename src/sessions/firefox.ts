import { Browser, createProfile } from '@puppeteer/browsers';
import { FIREFOX_ENV, firefoxPrefs } from '../browser/index.ts';
import { BidiConnection } from './bidi.ts';
import { firefoxPolicyFolder, writeFirefoxPolicy } from './firefox-policy.ts';
import { SANDBOX_PROXY_URL } from './sandbox.ts';
import {
  type BrowserFamily,
  type BrowserProcess,
  type LaunchOptions,
  launchSandboxed,
} from './sandboxed.ts';

/** A running Firefox: the service's WebDriver BiDi connection, which holds the browser's one session. */
export interface FirefoxBrowser extends BrowserProcess {
  family: 'firefox';
  control: BidiConnection;
}

/** Firefox's debugging port inside the sandbox's own network namespace; no other process shares it. */
const BIDI_PORT = 9222;

/**
 * Firefox's own sandboxes need user namespaces, which ours (sandbox.ts) does not give: inside
 * it they fail to start (EPERM on uid_map). The session sandbox confines the whole browser instead,
 * as it does Chromium started with --no-sandbox.
 */
const NO_NESTED_SANDBOX: NodeJS.ProcessEnv = {
  MOZ_DISABLE_CONTENT_SANDBOX: '1',
  MOZ_DISABLE_GMP_SANDBOX: '1',
  MOZ_DISABLE_RDD_SANDBOX: '1',
  MOZ_DISABLE_SOCKET_PROCESS_SANDBOX: '1',
  MOZ_DISABLE_UTILITY_SANDBOX: '1',
  MOZ_DISABLE_GPU_SANDBOX: '1',
  MOZ_CRASHREPORTER_DISABLE: '1',
};

/** Downloads saved into the files folder under the names sites give them, without asking. */
function downloadPrefs(files: string): Record<string, string | number | boolean> {
  return {
    'browser.download.dir': files,
    'browser.download.folderList': 2,
    'browser.download.useDownloadDir': true,
    'browser.download.always_ask_before_handling_new_types': false,
    'browser.download.start_downloads_in_tmp_dir': false,
    'browser.download.alwaysOpenPanel': false,
    'browser.download.manager.addToRecentDocs': false,
  };
}

/** Up once Firefox says its BiDi server listens; then the service takes the browser's session. */
async function connectBidi(
  browser: BrowserProcess['groups'][number],
  dir: string,
  timeoutMs: number,
  tail: () => string,
): Promise<BidiConnection> {
  const stderr = browser.child.stderr!;
  let timer: NodeJS.Timeout | undefined;
  let onData: ((chunk: Buffer) => void) | undefined;
  let onExit: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onData = (chunk) => {
        if (String(chunk).includes('WebDriver BiDi listening')) resolve();
      };
      onExit = () => reject(new Error(`browser exited before it was ready: ${tail()}`));
      stderr.on('data', onData);
      browser.child.once('exit', onExit);
      timer = setTimeout(
        () => reject(new Error(`browser did not answer within ${timeoutMs} ms: ${tail()}`)),
        timeoutMs,
      );
    });
    return await BidiConnection.open(`${dir}/debug.sock`, BIDI_PORT, timeoutMs);
  } finally {
    clearTimeout(timer);
    if (onData) stderr.off('data', onData);
    if (onExit) browser.child.off('exit', onExit);
  }
}

function firefox(o: LaunchOptions, policyAt: string): BrowserFamily<BidiConnection> {
  return {
    policyAt,
    writePolicy: writeFirefoxPolicy,
    prepareProfile: (profile, files) =>
      createProfile(Browser.FIREFOX, {
        path: profile,
        preferences: { ...firefoxPrefs(SANDBOX_PROXY_URL), ...downloadPrefs(files) },
      }),
    args: (profile) => [
      '--profile',
      profile,
      '--no-remote',
      `--remote-debugging-port=${BIDI_PORT}`,
      ...(o.headless ? ['--headless', `--window-size=${o.width},${o.height}`] : ['--kiosk']),
      'about:blank',
    ],
    env: { ...FIREFOX_ENV, ...NO_NESTED_SANDBOX },
    inboundPort: BIDI_PORT,
    stdio: ['ignore', 'ignore', 'pipe'],
    connect: connectBidi,
    close: (control) => control.send('browser.close'),
  };
}

export async function launchFirefox(o: LaunchOptions): Promise<FirefoxBrowser> {
  const launched = await launchSandboxed(o, firefox(o, await firefoxPolicyFolder(o.executable)));
  return { family: 'firefox', ...launched };
}
