import { execFile } from 'node:child_process';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { useServer } from '../helpers/server.ts';
import { expectNoSessionProcessesLeft, sessionBrowser } from './helpers.ts';

expectNoSessionProcessesLeft(() => t);
const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: { WEBDATA_SESSION_WARM_SPARES: '0' } });

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command as code inside a session's sandbox does: in the browser's own network, mount
 * and pid namespaces, at its root, with every capability dropped and no-new-privs set (as bwrap
 * starts the browser). nsenter and setpriv are util-linux; entering needs the root the tests run
 * as. Only what the sandbox holds can run: system tools (socat, getent, xdotool), not this Node.
 */
function runInSandbox(
  pid: number,
  command: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<Run> {
  const args = [
    '--target',
    String(pid),
    '--net',
    '--mount',
    '--pid',
    '--root',
    '--wd',
    '--',
    'setpriv',
    '--no-new-privs',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--',
    ...command,
  ];
  return new Promise((resolve) => {
    const child = execFile(
      'nsenter',
      args,
      { env: { PATH: '/usr/bin:/bin', ...opts.env }, timeout: 20_000 },
      (err, stdout, stderr) =>
        resolve({
          code: err ? Number(err.code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
    );
    // A command that exits before reading its input (a connection refused at once) closes the
    // pipe: the write fails with EPIPE, and what the test reads is its exit status and output.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(opts.input ?? '');
  });
}

/** Code in the sandbox of `pid` connecting to `address` (socat's spelling): exit code 0 if it could. */
function connectFromSandbox(pid: number, address: string): Promise<Run> {
  return runInSandbox(pid, ['socat', '-u', 'OPEN:/dev/null', address]);
}

const tcp = (host: string, port: number) =>
  host.includes(':')
    ? `TCP6:[${host}]:${port},connect-timeout=3`
    : `TCP4:${host}:${port},connect-timeout=3`;

/** The X windows `xdotool` finds on `display` from inside the sandbox of `pid`. */
async function windowsFromSandbox(pid: number, display: string): Promise<string[]> {
  const run = await runInSandbox(pid, ['xdotool', 'search', '--onlyvisible', '--name', '.*'], {
    env: { DISPLAY: display },
  });
  return run.stdout.split('\n').filter(Boolean);
}

async function openSession(body: object): Promise<string> {
  const res = await t.api('POST', '/api/v1/browser-sandbox/session', body);
  expect(res.status).toBe(200);
  return res.json.sessionId;
}

const socketPath = (display: string) => `/tmp/.X11-unix/X${display.slice(1)}`;

/** Listens on this machine's resolver port and records every query that reaches it. */
async function startResolverTrap(): Promise<{ queries: string[]; close(): void }> {
  const queries: string[] = [];
  const sockets: UdpSocket[] = [];
  for (const [type, address] of [
    ['udp4', '127.0.0.1'],
    ['udp6', '::1'],
  ] as const) {
    const socket = createSocket(type);
    socket.on('message', (_msg, from) => queries.push(`${from.address}:${from.port}`));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(53, address, () => resolve());
    });
    sockets.push(socket);
  }
  return {
    queries,
    close: () => {
      for (const socket of sockets) socket.close();
    },
  };
}

describe('session network', () => {
  it("code in one session's sandbox cannot reach another session's display, by abstract or file socket", async () => {
    const ids = await Promise.all([
      openSession({ headless: false }),
      openSession({ headless: false }),
      openSession({}),
    ]);
    try {
      const [a, b, c] = await Promise.all(ids.map((id) => sessionBrowser(t, id)));
      expect(a!.display).toBeTruthy();
      expect(b!.display).toBeTruthy();
      expect(a!.display).not.toBe(b!.display);
      // The display's own browser window is there to be found from its own sandbox.
      expect(await windowsFromSandbox(a!.pid, a!.display!)).not.toEqual([]);
      for (const [own, other] of [
        [a!, b!],
        [b!, a!],
        [c!, a!],
        [c!, b!],
      ] as const) {
        expect(await windowsFromSandbox(own.pid, other.display!)).toEqual([]);
        const path = socketPath(other.display!);
        const abstract = await connectFromSandbox(own.pid, `ABSTRACT-CONNECT:${path}`);
        expect(abstract.code, abstract.stderr).not.toBe(0);
        expect(abstract.stderr).toContain('Connection refused');
        const file = await connectFromSandbox(own.pid, `UNIX-CONNECT:${path}`);
        expect(file.code, file.stderr).not.toBe(0);
        expect(file.stderr).toContain('No such file');
      }
      // Its own display is reached through the file socket bound into its sandbox.
      const own = await connectFromSandbox(a!.pid, `UNIX-CONNECT:${socketPath(a!.display!)}`);
      expect(own.code, own.stderr).toBe(0);
    } finally {
      for (const id of ids) await t.api('DELETE', `/api/v1/browser-sandbox/session/${id}`);
    }
  }, 120_000);

  it('code in a sandbox opens no TCP connection but through the egress proxy', async () => {
    let accepted = 0;
    const listener: Server = createServer((socket) => {
      accepted++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '::', () => resolve()));
    const port = (listener.address() as { port: number }).port;
    // This machine's own addresses (loopback and its interfaces), never anything beyond it.
    const hosts = [
      '127.0.0.1',
      '::1',
      ...Object.values(networkInterfaces())
        .flat()
        .filter((i) => i && !i.internal && !i.address.startsWith('fe80'))
        .map((i) => i!.address),
    ];
    const sitePort = Number(new URL(site.origin).port);
    const ids = await Promise.all([openSession({ headless: false }), openSession({})]);
    try {
      for (const id of ids) {
        const browser = await sessionBrowser(t, id);
        const status = await runInSandbox(browser.pid, ['cat', '/proc/self/status']);
        expect(status.stdout).toMatch(/^CapEff:\s+0+$/m);
        for (const address of [...hosts.map((h) => tcp(h, port)), tcp('127.0.0.1', sitePort)]) {
          const run = await connectFromSandbox(browser.pid, address);
          expect(run.code, `${address}: ${run.stderr}`).not.toBe(0);
        }
        // No route at all: nothing beyond the namespace's own loopback exists.
        const routes = await runInSandbox(browser.pid, ['cat', '/proc/net/route']);
        expect(routes.stdout.trim().split('\n').slice(1)).toEqual([]);
        // The proxy's port is the one way out, and the proxy checks what goes through it.
        const viaProxy = await runInSandbox(
          browser.pid,
          // shut-none: a half-closed request is taken as a client gone before its answer.
          ['socat', '-t', '10', '-', `${tcp('127.0.0.1', browser.proxyPort)},shut-none`],
          {
            input: `GET ${site.origin}/session/app HTTP/1.0\r\nHost: ${new URL(site.origin).host}\r\n\r\n`,
          },
        );
        expect(viaProxy.stdout).toMatch(/^HTTP\/1\.[01] 200/);
        expect(viaProxy.stdout).toContain('Hello session');
      }
      expect(accepted).toBe(0);
    } finally {
      for (const id of ids) await t.api('DELETE', `/api/v1/browser-sandbox/session/${id}`);
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  }, 120_000);

  it("resolves no name from a sandbox, the browsers' own lookups included; pages still load over CDP through the proxy", async () => {
    // A sandbox has no /etc/resolv.conf, so the C library (and Chromium's resolver) asks
    // 127.0.0.1:53: where a lookup around the proxy lands on this machine.
    const trap = await startResolverTrap();
    const ids = await Promise.all([openSession({ headless: false }), openSession({})]);
    try {
      for (const id of ids) {
        const browser = await sessionBrowser(t, id);
        for (const name of ['update.googleapis.com', 'example.com']) {
          const lookup = await runInSandbox(browser.pid, ['getent', 'ahosts', name]);
          expect(lookup.code, lookup.stdout).not.toBe(0);
        }
      }
      // Pages load all the same: the proxy resolves names, not the browser.
      for (const id of ids) {
        const details = await t.api('GET', `/api/v1/browser-sandbox/session/${id}`);
        const remote = await chromium.connectOverCDP(details.json.wsUrl);
        try {
          const context = remote.contexts()[0]!;
          const page = context.pages()[0] ?? (await context.newPage());
          await page.goto(`${site.origin}/session/app`);
          expect(await page.textContent('#h')).toBe('Hello session');
        } finally {
          await remote.close();
        }
      }
      expect(trap.queries).toEqual([]);
    } finally {
      for (const id of ids) await t.api('DELETE', `/api/v1/browser-sandbox/session/${id}`);
      trap.close();
    }
  }, 120_000);
});
