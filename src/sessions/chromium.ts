import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CdpConnection } from './cdp.ts';
import { spawnGroup, type Group } from './processes.ts';
import { startXvfb, type Display } from './xvfb.ts';

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
  timeoutMs?: number;
}

/** One running browser: its own process group, profile, temp folder and, when visible, X display. */
export interface RunningBrowser {
  /** The browser's own DevTools endpoint (loopback; only the service connects to it). */
  wsEndpoint: string;
  /** The service's control connection (the debugging pipe); it closing means the browser is gone. */
  control: CdpConnection;
  dir: string;
  display: Display | undefined;
  groups: Group[];
  /** Ends every process and removes the folder; safe to call more than once. */
  dispose(): Promise<void>;
}

const DEVTOOLS_LINE = /DevTools listening on (ws:\/\/\S+)/;

function chromiumArgs(o: LaunchOptions, profile: string): string[] {
  const args = [
    // The pipe is the service's control connection; the port serves the user's CDP client.
    '--remote-debugging-pipe',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    `--proxy-server=${o.proxyUrl}`,
    // Not even loopback may skip the guard: `<-loopback>` removes Chromium's implicit bypass.
    '--proxy-bypass-list=<-loopback>',
    // WebRTC sends UDP (STUN/TURN) straight to any address, around the proxy and its guard.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-breakpad',
    '--no-first-run',
    '--no-default-browser-check',
    '--no-sandbox',
    '--password-store=basic',
    '--use-mock-keychain',
    `--window-size=${o.width},${o.height}`,
  ];
  if (o.headless) args.push('--headless');
  else args.push('--window-position=0,0', '--kiosk', '--test-type', '--disable-gpu', '--disable-features=Translate,MediaRouter');
  args.push('about:blank');
  return args;
}

function waitForEndpoint(group: Group, timeoutMs: number): Promise<string> {
  const stderr = group.child.stderr!;
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`browser did not open DevTools within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      text += String(chunk);
      const match = text.match(DEVTOOLS_LINE);
      if (match) {
        clearTimeout(timer);
        stderr.off('data', onData);
        // Keep draining so a chatty browser never blocks on a full pipe.
        stderr.resume();
        resolve(match[1]!);
      } else if (text.length > 64 * 1024) text = text.slice(-4096);
    };
    stderr.on('data', onData);
    group.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`browser exited before DevTools was ready: ${text.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

export async function launchChromium(o: LaunchOptions): Promise<RunningBrowser> {
  const timeoutMs = o.timeoutMs ?? 20_000;
  await mkdir(o.root, { recursive: true });
  const dir = await mkdtemp(join(o.root, 'b-'));
  const profile = join(dir, 'profile');
  const tmp = join(dir, 'tmp');
  await Promise.all([mkdir(profile), mkdir(tmp)]);
  const groups: Group[] = [];
  let display: Display | undefined;
  let control: CdpConnection | undefined;
  let disposed: Promise<void> | undefined;
  const dispose = () =>
    (disposed ??= (async () => {
      control?.close();
      await Promise.all(groups.map((g) => g.kill()));
      await rm(dir, { recursive: true, force: true });
    })());
  try {
    if (!o.headless) {
      display = await startXvfb(o.width, o.height, { ...process.env, ...o.env });
      groups.push(display.group);
    }
    const env: NodeJS.ProcessEnv = { ...process.env, ...o.env, TMPDIR: tmp, HOME: dir };
    if (display) env.DISPLAY = display.name;
    else delete env.DISPLAY;
    const browser = spawnGroup(o.executable, chromiumArgs(o, profile), { env, stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    groups.unshift(browser);
    control = new CdpConnection(browser.child.stdio[3] as Writable, browser.child.stdio[4] as Readable);
    const wsEndpoint = await waitForEndpoint(browser, timeoutMs);
    return { wsEndpoint, control, dir, display, groups, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
