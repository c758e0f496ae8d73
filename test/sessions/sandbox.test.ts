import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { useServer } from '../helpers/server.ts';
import { expectNoSessionProcessesLeft, sessionBrowser } from './helpers.ts';

expectNoSessionProcessesLeft(() => t);
const site = useFixture(() => startFixtureSite());
const t = useServer({ settings: { WEBDATA_SESSION_WARM_SPARES: '0' } });

/** Listening TCP sockets (IPv4 and IPv6) by socket inode, from the kernel's tables. */
async function listeningInodes(): Promise<Set<string>> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(table, 'utf8').catch(() => '')).trim().split('\n').slice(1);
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A') inodes.add(fields[9]!);
    }
  }
  return inodes;
}

async function socketInodes(pid: number): Promise<string[]> {
  const found: string[] = [];
  for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [] as string[])) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const match = target.match(/^socket:\[(\d+)\]$/);
    if (match) found.push(match[1]!);
  }
  return found;
}

function xdotool(display: string, ...args: string[]): string {
  try {
    return execFileSync('xdotool', args, {
      env: { ...process.env, DISPLAY: display },
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
  } catch {
    // `search` exits 1 when nothing matches.
    return '';
  }
}

/** The display's visible windows, by id and name: a file chooser or Save As dialog would add one. */
function visibleWindows(display: string): Map<string, string> {
  const ids = xdotool(display, 'search', '--onlyvisible', '--name', '.*')
    .split('\n')
    .filter(Boolean);
  return new Map(ids.map((id) => [id, xdotool(display, 'getwindowname', id)]));
}

async function openSession(body: object): Promise<{ sessionId: string; wsUrl: string }> {
  const res = await t.api('POST', '/api/v1/browser-sandbox/session', body);
  expect(res.status).toBe(200);
  return res.json;
}

describe('session sandbox', () => {
  it("a session browser sees no host files: not the data folder, not /etc, not other sessions' folders", async () => {
    const visible = await openSession({ headless: false });
    const headless = await openSession({});
    try {
      const a = await sessionBrowser(t, visible.sessionId);
      const b = await sessionBrowser(t, headless.sessionId);
      // The database the red team read through a file chooser lives in the data folder.
      expect(
        existsSync(join(t.dataDir, 'webdata.db')) || (await readdir(t.dataDir)).length > 0,
      ).toBe(true);
      for (const [own, other] of [
        [a, b],
        [b, a],
      ] as const) {
        // /proc/<pid>/root is the file system exactly as that process sees it.
        const root = `/proc/${own.pid}/root`;
        expect(existsSync(`${root}${own.dir}/profile`)).toBe(true);
        expect(existsSync(`${root}/usr/lib/chromium`)).toBe(true);
        expect(existsSync(`${root}${t.dataDir}`)).toBe(false);
        expect(existsSync(`${root}${other.dir}`)).toBe(false);
        expect(existsSync(`${root}/etc/hostname`)).toBe(false);
        expect(existsSync(`${root}/etc/passwd`)).toBe(false);
        expect(existsSync(`${root}${process.cwd()}`)).toBe(false);
        // Its own pid namespace: host processes, and their /proc/<pid>/root, are not there.
        expect(existsSync(`${root}/proc/${process.pid}`)).toBe(false);
        // No capabilities, so nothing can be mounted or unmounted from inside.
        const status = await readFile(`/proc/${own.pid}/status`, 'utf8');
        expect(status).toMatch(/^CapEff:\s+0+$/m);
        expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
        // The only writable mount of a real file system is the session's own folder.
        const writable = (await readFile(`/proc/${own.pid}/mountinfo`, 'utf8'))
          .trim()
          .split('\n')
          .map((line) => line.split(' '))
          .filter(
            (f) =>
              f[5]!.split(',').includes('rw') &&
              !['tmpfs', 'proc', 'devtmpfs', 'mqueue', 'devpts'].includes(f[f.indexOf('-') + 1]!),
          )
          .map((f) => f[4]);
        for (const mount of writable)
          expect(mount === own.dir || mount!.startsWith('/dev/')).toBe(true);
        expect(writable).toContain(own.dir);
        // The managed policy is there, read-only, in this browser's view only.
        const policy = JSON.parse(
          await readFile(`${root}/etc/chromium/policies/managed/webdata-session.json`, 'utf8'),
        );
        expect(policy).toMatchObject({
          AllowFileSelectionDialogs: false,
          DownloadDirectory: join(own.dir, 'files'),
        });
        expect(policy.URLBlocklist).toContain('file://*');
      }
      expect(existsSync('/etc/chromium/policies/managed/webdata-session.json')).toBe(false);
    } finally {
      await t.api('DELETE', `/api/v1/browser-sandbox/session/${visible.sessionId}`);
      await t.api('DELETE', `/api/v1/browser-sandbox/session/${headless.sessionId}`);
    }
  });

  it('real keyboard and mouse input on the display opens no file chooser, Open File or Save As dialog, and no file:// page', async () => {
    const created = await openSession({ headless: false });
    const remote = await chromium.connectOverCDP(created.wsUrl);
    try {
      const { display } = await sessionBrowser(t, created.sessionId);
      expect(display).toBeTruthy();
      const context = remote.contexts()[0]!;
      const page: Page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${site.origin}/session/files`);
      await page.bringToFront();
      await waitFor(async () =>
        [...visibleWindows(display!).values()].some((name) => name.includes('Files')),
      );
      const windows = [...visibleWindows(display!).keys()].sort();

      // Real input reaches the page: typed text lands in the text box.
      xdotool(display!, 'mousemove', '300', '30', 'click', '1');
      xdotool(display!, 'type', '--delay', '20', 'typed');
      await waitFor(async () => (await page.inputValue('#t')) === 'typed');

      // A click on the file input: the page asks for a chooser, and none opens.
      xdotool(display!, 'mousemove', '640', '400', 'click', '1');
      await waitFor(async () => (await page.title()) === 'chooser asked');
      // Ctrl+O (Open File), which opened file:///etc/hostname for the red team, and Ctrl+S (Save As).
      xdotool(display!, 'mousemove', '300', '30', 'click', '1');
      xdotool(display!, 'key', 'ctrl+o');
      xdotool(display!, 'key', 'ctrl+s');
      // Typing a file URL as if into a location bar and pressing Enter.
      xdotool(display!, 'key', 'ctrl+l');
      xdotool(display!, 'type', '--delay', '20', 'file:///etc/hostname\n');
      // A dialog takes well under a second to map; give it several.
      await sleep(3000);
      const after = visibleWindows(display!);
      expect(
        [...after.keys()].sort(),
        `windows now: ${JSON.stringify([...after.values()])}`,
      ).toEqual(windows);
      expect(await page.$eval('#f', (f) => (f as HTMLInputElement).files!.length)).toBe(0);
      const cdp = await remote.newBrowserCDPSession();
      const { targetInfos } = (await cdp.send('Target.getTargets')) as {
        targetInfos: Array<{ url: string }>;
      };
      expect(targetInfos.filter((i) => !/^(https?|about|chrome):/.test(i.url))).toEqual([]);
    } finally {
      await remote.close();
      await t.api('DELETE', `/api/v1/browser-sandbox/session/${created.sessionId}`);
    }
  });

  it('no session browser listens on a TCP port; clients connect over the pipe, each with a view of its own', async () => {
    const visible = await openSession({ headless: false });
    const headless = await openSession({});
    try {
      const listening = await listeningInodes();
      expect(listening.size).toBeGreaterThan(0);
      for (const id of [visible.sessionId, headless.sessionId]) {
        const { pids } = await sessionBrowser(t, id);
        for (const pid of pids) {
          const comm = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
          if (/^(Xvfb|x11vnc)/.test(comm)) continue;
          for (const inode of await socketInodes(pid))
            expect(listening.has(inode), `${comm} (${pid}) listens on TCP`).toBe(false);
        }
      }
      // Two clients of one session each have their own view: one's discovery and pages do not disturb the other.
      const first = await chromium.connectOverCDP(headless.wsUrl);
      const second = await chromium.connectOverCDP(headless.wsUrl);
      const page = await first.contexts()[0]!.newPage();
      await page.goto(`${site.origin}/session/app`);
      await waitFor(async () =>
        second
          .contexts()[0]!
          .pages()
          .some((p) => p.url().endsWith('/session/app')),
      );
      expect(await page.textContent('#h')).toBe('Hello session');
      await second.close();
      expect(await page.evaluate(() => 1 + 1)).toBe(2);
      await first.close();
    } finally {
      await t.api('DELETE', `/api/v1/browser-sandbox/session/${visible.sessionId}`);
      await t.api('DELETE', `/api/v1/browser-sandbox/session/${headless.sessionId}`);
    }
  });
});
