import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect } from 'vitest';
import WebSocket from 'ws';
import { markedGroups } from '../../src/sessions/index.ts';
import { waitFor } from '../helpers/poll.ts';
import type { TestServer } from '../helpers/server.ts';

export interface SessionBrowser {
  pid: number;
  /** Every process of the session (sandbox, browser and helpers, display, VNC). */
  pids: number[];
  /** The session's own folder, as the host sees it. */
  dir: string;
  display: string | undefined;
  /** The loopback port of the egress proxy, as the browser's `--proxy-server` names it. */
  proxyPort: number;
}

/** The browser's main process (not its sandbox nor Debian's launcher script), its folder, display and proxy. */
export async function sessionBrowser(t: TestServer, sessionId: string): Promise<SessionBrowser> {
  const pids = await t.server.services.sessions.processIds(sessionId);
  for (const pid of pids) {
    const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
    const comm = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
    if (
      !comm.startsWith('chrom') ||
      args.some((a) => a.startsWith('--type=')) ||
      !args.includes('--remote-debugging-pipe')
    )
      continue;
    const profile = args
      .find((a) => a.startsWith('--user-data-dir='))!
      .slice('--user-data-dir='.length);
    const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
    const display = environ.find((e) => e.startsWith('DISPLAY='))?.slice('DISPLAY='.length);
    const proxy = args.find((a) => a.startsWith('--proxy-server='))!;
    const proxyPort = Number(new URL(proxy.slice('--proxy-server='.length)).port);
    return { pid, pids, dir: join(profile, '..'), display, proxyPort };
  }
  throw new Error(`no browser process among ${pids.join(', ')}`);
}

/** Status code of a WebSocket upgrade attempt: 101 when it opened, else the HTTP refusal. */
export function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      ws.terminate();
    });
    ws.on('error', () => resolve(0));
  });
}

/** Descendants of this process whose command is a browser (Chromium or Firefox), X server or VNC server. */
async function sessionDescendants(): Promise<string[]> {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') continue;
    parent.set(Number(name), Number(fields[1]));
    comm.set(Number(name), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
  }
  const found: string[] = [];
  for (const [pid, c] of comm) {
    if (!/chrom|firefox|Xvfb|x11vnc/i.test(c)) continue;
    for (let p = parent.get(pid); p && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        found.push(`${pid} ${c}`);
        break;
      }
    }
  }
  return found;
}

/** Nothing a test server started for sessions may survive it: marked groups and child processes alike. */
export async function leftoverSessionProcesses(runtimeRoot: string): Promise<string[]> {
  const groups = await markedGroups(runtimeRoot);
  return [...groups.map((g) => `group ${g}`), ...(await sessionDescendants())];
}

/**
 * Checks, after the file's tests, that the server (`server()`, read then) left no session process.
 * Call it before `useServer`: vitest runs afterAll hooks last-registered first, so it runs once
 * the server closed.
 */
export function expectNoSessionProcessesLeft(server: () => TestServer): void {
  afterAll(async () => {
    expect(await leftoverSessionProcesses(server().server.services.sessions.runtimeRoot)).toEqual(
      [],
    );
  });
}

/**
 * Opens a session's live view in `view` and waits until the centre of noVNC's canvas shows the
 * colour of the fixture's `/session/color` page; returns that pixel.
 */
export async function liveViewPixel(view: Page, liveViewUrl: string): Promise<number[]> {
  await view.goto(liveViewUrl.replace('localhost', '127.0.0.1'));
  await view.waitForSelector('body[data-state="connected"]');
  const pixel = await waitFor(async () => {
    const rgba = await view.evaluate(() => {
      const canvas = document.querySelector('#screen canvas') as HTMLCanvasElement | null;
      if (!canvas?.width) return null;
      return Array.from(
        canvas.getContext('2d')!.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data,
      );
    });
    return rgba && rgba[0] === 255 && rgba[1] === 0 && rgba[2] === 170 && rgba;
  });
  return pixel!.slice(0, 3);
}
