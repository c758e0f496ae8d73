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
 * starts the browser). nsenter and setpriv are util-linux; entering needs the root the tests run as.
 */
function runInSandbox(pid: number, command: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
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
    execFile(
      'nsenter',
      args,
      { env: { PATH: '/usr/bin:/bin', ...env }, timeout: 20_000 },
      (err, stdout, stderr) =>
        resolve({
          code: err ? Number(err.code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
    );
  });
}

type Target = { path: string } | { host: string; port: number };

interface ProbeInput {
  connect: Target[];
  lookup: string[];
  /** An absolute URL fetched through the proxy at 127.0.0.1:port, as Chromium sends it. */
  viaProxy?: { port: number; url: string };
}

interface ProbeResult {
  /** Per target, `connected` or the error code. */
  connect: string[];
  lookup: string[];
  viaProxy?: { status: number; body: string } | string;
  capEff: string;
  routes: number;
}

/**
 * Runs inside the sandbox (node -e, from its source): so it must name nothing outside itself.
 */
async function probe(input: ProbeInput): Promise<void> {
  const net = process.getBuiltinModule('node:net');
  const dns = process.getBuiltinModule('node:dns');
  const http = process.getBuiltinModule('node:http');
  const fs = process.getBuiltinModule('node:fs');
  const attempt = (target: Target) =>
    new Promise<string>((resolve) => {
      const socket = net.connect(target as never);
      const timer = setTimeout(() => {
        socket.destroy();
        resolve('timeout');
      }, 3000);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.destroy();
        resolve('connected');
      });
      socket.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        resolve(err.code ?? err.message);
      });
    });
  const lookup = (name: string) =>
    new Promise<string>((resolve) =>
      dns.lookup(name, (err, address) => resolve(err ? (err.code ?? err.message) : address)),
    );
  const fetch = ({ port, url }: { port: number; url: string }) =>
    new Promise<ProbeResult['viaProxy']>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: url }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
  const routes = fs.readFileSync('/proc/net/route', 'utf8').trim().split('\n').length - 1;
  const capEff = /^CapEff:\s+(\S+)$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]!;
  const result: ProbeResult = {
    connect: await Promise.all(input.connect.map(attempt)),
    lookup: await Promise.all(input.lookup.map(lookup)),
    viaProxy: input.viaProxy && (await fetch(input.viaProxy)),
    capEff,
    routes,
  };
  console.log(JSON.stringify(result));
}

async function probeInSandbox(pid: number, input: ProbeInput): Promise<ProbeResult> {
  const run = await runInSandbox(pid, [
    'node',
    '-e',
    `(${probe.toString()})(${JSON.stringify(input)})`,
  ]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as ProbeResult;
}

/** The X windows `xdotool` finds on `display` from inside the sandbox of `pid`. */
async function windowsFromSandbox(pid: number, display: string): Promise<string[]> {
  const run = await runInSandbox(pid, ['xdotool', 'search', '--onlyvisible', '--name', '.*'], {
    DISPLAY: display,
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
        const other_ = socketPath(other.display!);
        const result = await probeInSandbox(own.pid, {
          connect: [{ path: `\0${other_}` }, { path: other_ }],
          lookup: [],
        });
        expect(result.connect).toEqual(['ECONNREFUSED', 'ENOENT']);
      }
      // Its own display is reached through the file socket bound into its sandbox.
      const own = await probeInSandbox(a!.pid, {
        connect: [{ path: socketPath(a!.display!) }],
        lookup: [],
      });
      expect(own.connect).toEqual(['connected']);
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
        const result = await probeInSandbox(browser.pid, {
          connect: [
            ...hosts.map((host) => ({ host, port })),
            { host: '127.0.0.1', port: sitePort },
          ],
          lookup: [],
          viaProxy: { port: browser.proxyPort, url: `${site.origin}/session/app` },
        });
        expect(result.capEff).toMatch(/^0+$/);
        for (const outcome of result.connect)
          expect(outcome, JSON.stringify(result.connect)).not.toBe('connected');
        expect(result.routes).toBe(0);
        // The proxy's port is the one way out, and it checks what goes through it.
        expect(result.viaProxy).toMatchObject({ status: 200 });
        expect((result.viaProxy as { body: string }).body).toContain('Hello session');
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
        const result = await probeInSandbox(browser.pid, {
          connect: [],
          lookup: ['update.googleapis.com', 'example.com'],
        });
        for (const outcome of result.lookup) expect(outcome).toMatch(/^E[A-Z_]+$/);
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
