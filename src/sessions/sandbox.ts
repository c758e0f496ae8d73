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
 * unmount or gain privileges to undo this.
 *
 * The network namespace is the sandbox's own, holding only its loopback: no route out, so no
 * connection and no name lookup can go around the egress proxy, and no abstract unix socket of
 * the host (X11 displays listen on one each) can be reached. What the browser needs comes in as
 * file system sockets: its own X display's, and the egress proxy's (proxy-socket.ts), which a
 * relay inside the namespace offers at SANDBOX_PROXY_URL, since Chromium speaks to a proxy only
 * over TCP.
 */
export interface SandboxLayout {
  /** The session's own folder: profile, temp files, downloads; bound read-write at the same path. */
  dir: string;
  /** The browser's managed policy (a folder), bound read-only where the browser reads it (`at`). */
  policy: { from: string; at: string };
  /** The egress proxy's unix socket on the host (proxy-socket.ts). */
  proxySocket: string;
  /** The X display's file system socket, for a visible browser; bound at the same path. */
  displaySocket?: string;
  /**
   * A debugging port the browser listens on inside the namespace, offered to the service as a
   * unix socket in the session's folder (Firefox serves WebDriver BiDi only over TCP).
   */
  inbound?: { socket: string; port: number };
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
  '/etc/firefox-esr',
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

/** Where the egress proxy's socket is bound inside the sandbox. */
const PROXY_SOCKET = '/run/webdata/egress.sock';

/**
 * Where the browser finds the egress proxy inside its namespace, whatever port the proxy has on
 * the host: a port above 1023, which the relay may bind without capabilities.
 */
const PROXY_PORT = 3128;
export const SANDBOX_PROXY_URL = `http://127.0.0.1:${PROXY_PORT}`;

/**
 * Starts the relay from SANDBOX_PROXY_URL to the proxy's socket in the background (and the
 * inbound one, when asked), waits until it listens (the kernel's table of the namespace's TCP
 * sockets shows it, state 0A), then runs the command in its place. The relay shares the sandbox and ends with it: bwrap's pid namespace
 * dies with the command.
 */
function relayThenRun(inbound: SandboxLayout['inbound']): string {
  const inward = inbound
    ? `socat UNIX-LISTEN:${inbound.socket},fork,unlink-early TCP:127.0.0.1:${inbound.port} &\n`
    : '';
  return `${inward}socat TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:${PROXY_SOCKET} &
relay=$!
listening=" 0100007F:${PROXY_PORT.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A "
until grep -q "$listening" /proc/net/tcp; do
  kill -0 $relay 2>/dev/null || { echo "the egress relay (socat) did not start" >&2; exit 1; }
  sleep 0.01
done
exec "$@"`;
}

/** The bwrap command line that runs `command args` inside the session's sandbox. */
export function sandboxArgs(layout: SandboxLayout, command: string, args: string[]): string[] {
  return [
    // The sandbox ends with the service even if the debugging pipe were somehow kept open.
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-cgroup-try',
    '--cap-drop',
    'ALL',
    ...topLevelArgs(),
    ...SYSTEM_PATHS.flatMap((p) => ['--ro-bind-try', p, p]),
    '--ro-bind',
    layout.policy.from,
    layout.policy.at,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/dev/shm',
    '--tmpfs',
    '/tmp',
    ...(layout.displaySocket ? ['--ro-bind', layout.displaySocket, layout.displaySocket] : []),
    '--ro-bind',
    layout.proxySocket,
    PROXY_SOCKET,
    '--bind',
    layout.dir,
    layout.dir,
    '--chdir',
    layout.dir,
    '--',
    '/bin/sh',
    '-c',
    relayThenRun(layout.inbound),
    'sandbox-relay',
    command,
    ...args,
  ];
}
