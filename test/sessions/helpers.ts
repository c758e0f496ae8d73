import { readdir, readFile } from 'node:fs/promises';
import { afterAll, expect } from 'vitest';
import WebSocket from 'ws';
import { markedGroups } from '../../src/sessions/index.ts';
import type { TestServer } from '../helpers/server.ts';

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

/** Descendants of this process whose command is a browser, X server or VNC server. */
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
    if (!/chrom|Xvfb|x11vnc/i.test(c)) continue;
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
