import { once } from 'node:events';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Group,
  PRESENTATION_FLAGS,
  QUIET_FEATURES,
  sharedFlags,
  spawnGroup,
  startXvfb,
  type Xvfb,
} from '../browser/index.ts';
import { CdpConnection } from './cdp.ts';
import { writeSessionPolicy } from './chromium-policy.ts';
import { FILES_FOLDER } from './files.ts';
import { type PageAttachments, presentAsChrome } from './presentation.ts';
import { copyProfile } from './profiles.ts';
import { openProxySocket, type ProxySocket } from './proxy-socket.ts';
import { SANDBOX_PROXY_URL, sandboxArgs } from './sandbox.ts';

export interface LaunchOptions {
  executable: string;
  headless: boolean;
  width: number;
  height: number;
  /** The SSRF egress proxy every request of the browser goes through. */
  proxyUrl: string;
  /** Folder under which this browser gets its own profile and temp folder. */
  root: string;
  /** Extra environment for every process (the runtime marker the reaper looks for). */
  env: NodeJS.ProcessEnv;
  /** A user-data folder to start from (a named profile, profiles.ts), copied into the sandbox. */
  profileFrom?: string;
  timeoutMs?: number;
}

/** One running browser: its own process group, sandbox, profile, temp folder and, when visible, X display. */
export interface RunningBrowser {
  /**
   * The browser's only DevTools connection, its debugging pipe: the service's control messages
   * and, through channels, every client's (cdp.ts). It closing means the browser is gone.
   */
  control: CdpConnection;
  /** The session's own folder, the only place the browser can write. */
  dir: string;
  /** Its files folder: uploads through the API and the page's downloads (files.ts). */
  files: string;
  /** Its user-data folder. */
  profile: string;
  /** The pages the service is attached to, for work that starts with each (recording.ts). */
  pages: PageAttachments;
  display: Xvfb | undefined;
  groups: Group[];
  /**
   * Asks the browser to exit as a user closing it would, so everything of its profile is on
   * disk, and waits for it up to `ms`; the folders stay until `dispose`.
   */
  exit(ms: number): Promise<void>;
  /** Ends every process and removes the folders; safe to call more than once. */
  dispose(): Promise<void>;
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

/** The last lines the browser wrote to stderr, for the error when it does not start. */
function stderrTail(group: Group): () => string {
  let text = '';
  group.child.stderr!.on('data', (chunk: Buffer) => {
    text = (text + String(chunk)).slice(-4096);
  });
  return () => text.trim().split('\n').slice(-3).join(' | ');
}

/** Ready once the browser answers on its pipe; a browser that exits or stays silent fails the launch. */
async function waitForBrowser(
  control: CdpConnection,
  group: Group,
  timeoutMs: number,
): Promise<void> {
  const tail = stderrTail(group);
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

export async function launchChromium(o: LaunchOptions): Promise<RunningBrowser> {
  const timeoutMs = o.timeoutMs ?? 20_000;
  await mkdir(o.root, { recursive: true });
  const dir = await mkdtemp(join(o.root, 'b-'));
  // Beside the session's folder, not in it: the browser may write there, and must not rewrite its policy.
  const policyDir = `${dir}-policy`;
  const profile = join(dir, 'profile');
  const tmp = join(dir, 'tmp');
  const files = join(dir, FILES_FOLDER);
  await Promise.all([
    o.profileFrom
      ? copyProfile(o.profileFrom, profile).catch(async (err: NodeJS.ErrnoException) => {
          // A profile no session saved into yet has no folder: the browser starts it afresh.
          if (err.code !== 'ENOENT') throw err;
          await mkdir(profile);
        })
      : mkdir(profile),
    mkdir(tmp),
    mkdir(files),
    writeSessionPolicy(policyDir, files),
  ]);
  const groups: Group[] = [];
  let proxy: ProxySocket | undefined;
  let display: Xvfb | undefined;
  let control: CdpConnection | undefined;
  let disposed: Promise<void> | undefined;
  const dispose = () =>
    (disposed ??= (async () => {
      control?.close();
      await Promise.all(groups.map((g) => g.kill()));
      await Promise.all([
        proxy?.close(),
        rm(dir, { recursive: true, force: true }),
        rm(policyDir, { recursive: true, force: true }),
      ]);
    })());
  try {
    // The sandbox's only way out, beside its folder for the same reason as the policy.
    proxy = await openProxySocket(`${dir}-egress.sock`, o.proxyUrl);
    if (!o.headless) {
      display = await startXvfb({
        width: o.width,
        height: o.height,
        env: { ...process.env, ...o.env },
        terminate: true,
      });
      groups.push(display.group);
    }
    // Only what the browser needs: the service's own environment (keys, database URLs) stays out.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      LANG: process.env.LANG ?? 'C.UTF-8',
      ...o.env,
      TMPDIR: tmp,
      HOME: dir,
    };
    if (display) env.DISPLAY = display.display;
    const browser = spawnGroup(
      'bwrap',
      sandboxArgs(
        {
          dir,
          policyDir,
          proxySocket: proxy.path,
          displaySocket: display?.socket,
        },
        o.executable,
        chromiumArgs(o, profile),
      ),
      {
        env,
        stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      },
    );
    groups.unshift(browser);
    control = new CdpConnection(
      browser.child.stdio[3] as Writable,
      browser.child.stdio[4] as Readable,
    );
    await waitForBrowser(control, browser, timeoutMs);
    await allowDownloads(control, files);
    const pages = await presentAsChrome(control);
    const exit = async (ms: number) => {
      if (control!.closed) return;
      // The pipe closes some tens of milliseconds before the browser has exited and written the
      // last of its profile (its databases' journals), which a profile save would then copy
      // half-gone: the sandbox exits only once the browser has.
      const child = browser.child;
      const gone = Promise.all([
        once(control!, 'close'),
        child.exitCode === null && child.signalCode === null ? once(child, 'exit') : undefined,
      ]);
      await control!.send('Browser.close').catch(() => undefined);
      await Promise.race([gone, sleep(ms, undefined, { ref: false })]);
    };
    return { control, dir, files, profile, pages, display, groups, exit, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
