import type { StdioOptions } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Group, spawnGroup, startXvfb, type Xvfb } from '../browser/index.ts';
import { FILES_FOLDER } from './files.ts';
import { copyProfile } from './profiles.ts';
import { openProxySocket, type ProxySocket } from './proxy-socket.ts';
import { sandboxArgs } from './sandbox.ts';

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

/** The folders and processes of one sandboxed browser, whichever family. */
export interface BrowserProcess {
  /** The session's own folder, the only place the browser can write. */
  dir: string;
  /** Its files folder: uploads through the API and the page's downloads (files.ts). */
  files: string;
  /** Its user-data folder. */
  profile: string;
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

/** What differs between browser families: their policy, profile, command line and connection. */
export interface BrowserFamily<C extends { closed: boolean; close(): void }> {
  /** Where the browser reads its managed policy; the sandbox shows the policy folder there. */
  policyAt: string;
  writePolicy(policyDir: string, files: string): Promise<void>;
  /** Readies a fresh or copied profile folder (preferences a family keeps there). */
  prepareProfile(profile: string, files: string): Promise<void>;
  args(profile: string): string[];
  env: NodeJS.ProcessEnv;
  /** A TCP port inside the sandbox the service connects to through `dir/debug.sock`. */
  inboundPort?: number;
  stdio: StdioOptions;
  /**
   * Opens the control connection once the browser is up; rejects when it exits or stays silent,
   * saying why with `tail`, the browser's last lines on stderr.
   */
  connect(browser: Group, dir: string, timeoutMs: number, tail: () => string): Promise<C>;
  /** Asks the browser to close as a user would. */
  close(control: C): Promise<unknown>;
}

/** The last lines the browser wrote to stderr, for the error when it does not start. */
function stderrTail(group: Group): () => string {
  let text = '';
  group.child.stderr!.on('data', (chunk: Buffer) => {
    text = (text + String(chunk)).slice(-4096);
  });
  return () => text.trim().split('\n').slice(-3).join(' | ');
}

/**
 * Starts a browser of `family` in its own sandbox (sandbox.ts), folder, egress socket and, when
 * visible, X display; any failure on the way removes everything started so far.
 */
export async function launchSandboxed<C extends { closed: boolean; close(): void }>(
  o: LaunchOptions,
  family: BrowserFamily<C>,
): Promise<BrowserProcess & { control: C }> {
  const timeoutMs = o.timeoutMs ?? 20_000;
  await mkdir(o.root, { recursive: true });
  const dir = await mkdtemp(join(o.root, 'b-'));
  // Beside the session's folder, not in it: the browser may write there, and must not rewrite its policy.
  const policyDir = `${dir}-policy`;
  const profile = join(dir, 'profile');
  const tmp = join(dir, 'tmp');
  const files = join(dir, FILES_FOLDER);
  await Promise.all([
    (o.profileFrom
      ? copyProfile(o.profileFrom, profile).catch(async (err: NodeJS.ErrnoException) => {
          // A profile no session saved into yet has no folder: the browser starts it afresh.
          if (err.code !== 'ENOENT') throw err;
          await mkdir(profile);
        })
      : mkdir(profile)
    ).then(() => family.prepareProfile(profile, files)),
    mkdir(tmp),
    mkdir(files),
    family.writePolicy(policyDir, files),
  ]);
  const groups: Group[] = [];
  let proxy: ProxySocket | undefined;
  let display: Xvfb | undefined;
  let control: C | undefined;
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
      ...family.env,
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
          policy: { from: policyDir, at: family.policyAt },
          proxySocket: proxy.path,
          displaySocket: display?.socket,
          inbound:
            family.inboundPort === undefined
              ? undefined
              : { socket: join(dir, 'debug.sock'), port: family.inboundPort },
        },
        o.executable,
        family.args(profile),
      ),
      { env, stdio: family.stdio },
    );
    groups.unshift(browser);
    control = await family.connect(browser, dir, timeoutMs, stderrTail(browser));
    const connected = control;
    const exit = async (ms: number) => {
      if (connected.closed) return;
      // The control connection closes some tens of milliseconds before the browser has exited
      // and written the last of its profile (its databases' journals), which a profile save
      // would then copy half-gone: the sandbox exits only once the browser has.
      const child = browser.child;
      const gone =
        child.exitCode === null && child.signalCode === null ? once(child, 'exit') : undefined;
      await family.close(connected).catch(() => undefined);
      await Promise.race([gone, sleep(ms, undefined, { ref: false })]);
    };
    return { control, dir, files, profile, display, groups, exit, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
