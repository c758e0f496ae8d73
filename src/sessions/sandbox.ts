import { lstatSync, readlinkSync } from 'node:fs';

/**
 * The file system a session browser sees. A session is driven by its user through CDP and, when
 * visible, by real keyboard and mouse input over the live view, which reaches Chromium's own
 * dialogs (file choosers, Save As, Open File); nothing that happens inside the browser can be
 * trusted to stay away from host files, so the browser runs where host files do not exist.
 *
 * bubblewrap starts it in a fresh mount namespace whose root is an empty tmpfs holding only:
 * read-only system files Chromium needs (/usr and its merged-/usr links, fonts, the Debian
 * launcher's flag files), a fresh /proc of its own pid namespace, a minimal /dev, private tmpfs
 * /tmp and /dev/shm, the managed policy, and the session's own folder, the one writable place.
 * The service's data folder (database, files), its configuration, other sessions' profiles and
 * the rest of /etc are not there to be chosen, opened, saved over or read, whatever input comes.
 * The pid namespace keeps /proc/<pid>/root of host processes out of reach; all capabilities
 * are dropped and no-new-privs is set (bwrap always sets it), so the browser cannot mount,
 * unmount or gain privileges to undo this. The network namespace is shared: the browser must
 * reach the egress proxy on loopback, which is where its traffic is checked.
 */
export interface SandboxLayout {
  /** The session's own folder: profile, temp files, downloads; bound read-write at the same path. */
  dir: string;
  /** Folder with the managed Chromium policy, bound read-only where Debian's Chromium reads it. */
  policyDir: string;
}

/** Where Debian's Chromium reads mandatory policies (headless shell reads none; see chromium-policy.ts). */
export const MANAGED_POLICY_DIR = '/etc/chromium/policies/managed';

/** Read-only system paths bound when present; everything else of /etc stays out. */
const SYSTEM_PATHS = [
  '/usr',
  '/etc/fonts',
  '/var/cache/fontconfig',
  '/etc/chromium.d',
  '/etc/chromium/master_preferences',
  '/etc/ld.so.cache',
  '/etc/localtime',
  '/etc/ssl/certs',
];

/** Top-level folders that merged-/usr systems make links into /usr, bound as they are on the host. */
const TOP_LEVEL = ['/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];

function topLevelArgs(): string[] {
  const args: string[] = [];
  for (const path of TOP_LEVEL) {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else args.push('--ro-bind', path, path);
  }
  return args;
}

/** The bwrap command line that runs `command args` inside the session's sandbox. */
export function sandboxArgs(layout: SandboxLayout, command: string, args: string[]): string[] {
  return [
    // The sandbox ends with the service even if the debugging pipe were somehow kept open.
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-cgroup-try',
    '--cap-drop',
    'ALL',
    ...topLevelArgs(),
    ...SYSTEM_PATHS.flatMap((p) => ['--ro-bind-try', p, p]),
    '--ro-bind',
    layout.policyDir,
    MANAGED_POLICY_DIR,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/dev/shm',
    '--tmpfs',
    '/tmp',
    '--bind',
    layout.dir,
    layout.dir,
    '--chdir',
    layout.dir,
    '--',
    command,
    ...args,
  ];
}
