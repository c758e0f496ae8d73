import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type FixtureSite, startFixtureSite } from '../fixtures/site/server.ts';
import { freePort, TEST_KEY, TEST_KEY_2 } from '../helpers/server.ts';

/**
 * 500 scrapes and 20 sessions in five waves, after a warm-up of the same mix, against a real
 * `webdata serve` process. Its resident memory, after a full garbage collection asked for over
 * the Node inspector, must come back to within 10% of where the warm-up left it; once it has
 * shut down (SIGTERM), no browser, Xvfb or x11vnc process and no temporary folder may be left.
 * The server runs in its own process so the clients here (Playwright, WebSockets) are not
 * measured with it, and with a private TMPDIR so what other tests leave in /tmp is not ours.
 */
const WAVES = 5;
const SCRAPES_PER_WAVE = 100;
const BROWSER_SCRAPES_PER_WAVE = 10;
const SESSIONS_PER_WAVE = 4;

const ROOT = new URL('../../', import.meta.url).pathname;

let site: FixtureSite;
let server: ChildProcess;
let base: string;
let inspector: WebSocket;
let privateTmp: string;
let dataDir: string;
let xLocksBefore: Set<string>;

const xLocks = async () => new Set((await readdir('/tmp')).filter((n) => /^\.X\d+-lock$/.test(n)));

/** Lines a child writes, until one matches. */
function waitForLine(
  stream: NodeJS.ReadableStream,
  re: RegExp,
  timeoutMs = 60_000,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => reject(new Error(`no line matching ${re} in time; got: ${buffer.slice(-2000)}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const m = buffer.match(re);
      if (m) {
        clearTimeout(timer);
        stream.off('data', onData);
        resolve(m);
      }
    };
    stream.on('data', onData);
  });
}

let nextId = 1;
function inspect(method: string): Promise<void> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (data: Buffer) => {
      const msg = JSON.parse(data.toString()) as { id?: number; error?: unknown };
      if (msg.id !== id) return;
      inspector.off('message', onMessage);
      if (msg.error) reject(new Error(JSON.stringify(msg.error)));
      else resolve();
    };
    inspector.on('message', onMessage);
    inspector.send(JSON.stringify({ id, method }));
  });
}

async function settledRss(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await inspect('HeapProfiler.collectGarbage');
    await new Promise((r) => setTimeout(r, 500));
  }
  const status = await readFile(`/proc/${server.pid}/status`, 'latin1');
  return Number(status.match(/^VmRSS:\s+(\d+) kB/m)![1]) * 1024;
}

async function api(
  method: string,
  path: string,
  body?: unknown,
  key = TEST_KEY,
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(90_000),
  });
  return { status: res.status, json: await res.json() };
}

async function scrapeWave(wave: number): Promise<void> {
  const limit = pLimit(8);
  const results = await Promise.all(
    Array.from({ length: SCRAPES_PER_WAVE }, (_, i) =>
      limit(async () => {
        // Every tenth page needs JavaScript, so the browser pool takes part too.
        const url =
          i < BROWSER_SCRAPES_PER_WAVE
            ? `${site.origin}/browser/js-only?w=${wave}&i=${i}`
            : `${site.origin}/article.html?w=${wave}&i=${i}`;
        return api('POST', '/api/v1/scrape/single', { url });
      }),
    ),
  );
  for (const r of results)
    expect(r.status === 200 && r.json.success, JSON.stringify(r.json).slice(0, 300)).toBe(true);
}

/** A session from create to close: a CDP client loads a page; a visible one also serves its live view over VNC. */
async function sessionLife(headless: boolean, key: string): Promise<void> {
  const created = await api('POST', '/api/v1/browser-sandbox/session', { headless }, key);
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  const { sessionId, wsUrl } = created.json;
  try {
    const remote = await chromium.connectOverCDP(wsUrl);
    try {
      const context = remote.contexts()[0] ?? (await remote.newContext());
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${site.origin}/article.html`);
      expect(await page.title()).not.toBe('');
    } finally {
      await remote.close();
    }
    if (!headless) {
      const vnc = new WebSocket(wsUrl.replace('/browser-sandbox-ws', '/vnc-ws'), ['binary']);
      const banner = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no RFB banner within 30 s')), 30_000);
        vnc.once('message', (data: Buffer) => {
          clearTimeout(timer);
          resolve(data.toString('latin1'));
        });
        vnc.once('error', reject);
        vnc.once('close', (code) =>
          reject(new Error(`the live view closed (${code}) before its RFB banner`)),
        );
      });
      expect(banner).toMatch(/^RFB \d{3}\.\d{3}\n/);
      vnc.close();
    }
  } finally {
    expect(
      (await api('DELETE', `/api/v1/browser-sandbox/session/${sessionId}`, undefined, key)).status,
    ).toBe(200);
  }
}

const started = Date.now();
/** Progress on stderr, so a run that stalls shows where. */
const progress = (what: string) =>
  process.stderr.write(`leak test ${((Date.now() - started) / 1000).toFixed(0)} s: ${what}\n`);

async function wave(n: number): Promise<void> {
  progress(`wave ${n}`);
  const sessions = async () => {
    // One visible session a wave (Xvfb, x11vnc), the rest headless; two users so no per-user cap interferes.
    for (let i = 0; i < SESSIONS_PER_WAVE; i++)
      await sessionLife(i !== 0, i % 2 ? TEST_KEY_2 : TEST_KEY);
  };
  await Promise.all([scrapeWave(n), sessions()]);
}

/** Live processes that carry our private temporary folder in their environment or command line. */
async function processesOf(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const environ = await readFile(`/proc/${name}/environ`, 'latin1').catch(() => '');
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'latin1').catch(() => '');
    if (environ.split('\0').includes(`TMPDIR=${folder}`) || cmdline.includes(folder))
      found.push(`${name} ${cmdline.split('\0').join(' ').slice(0, 200)}`);
  }
  return found;
}

beforeAll(async () => {
  site = await startFixtureSite();
  dataDir = await mkdtemp(join(tmpdir(), 'webdata-leak-data-'));
  privateTmp = await mkdtemp(join(tmpdir(), 'webdata-leak-tmp-'));
  xLocksBefore = await xLocks();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--inspect=127.0.0.1:0', 'src/cli/main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      TMPDIR: privateTmp,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEBDATA_PUBLIC_URL: base,
      WEBDATA_DATA_DIR: dataDir,
      WEBDATA_API_KEYS: `${TEST_KEY},${TEST_KEY_2}`,
      WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
      WEBDATA_SESSION_WARM_SPARES: '0',
      WEBDATA_SHED_EVENT_LOOP_DELAY_MS: '0',
      // Conversion runs inline: a worker thread's heap is its own isolate, which the inspector's
      // collection here does not reach, so its garbage would read as growth (see docs/operations.md).
      WEBDATA_CONTENT_WORKERS: '0',
      WEBDATA_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [inspectorLine] = await Promise.all([
    waitForLine(server.stderr!, /Debugger listening on (ws:\/\/\S+)/),
    waitForLine(server.stdout!, /webdata listening on/),
  ]);
  server.stdout!.resume();
  server.stderr!.resume();
  inspector = new WebSocket(inspectorLine[1]!);
  await new Promise((resolve, reject) => inspector.once('open', resolve).once('error', reject));
}, 120_000);

afterAll(async () => {
  inspector?.close();
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await site?.close();
  await rm(privateTmp, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

describe('leaks', () => {
  it('500 scrapes and 20 sessions in waves leave memory where it was, and nothing behind after shutdown', async () => {
    await wave(0);
    // Lazily sized things (V8's heap, SQLite's page cache, the pools) reach their working size in the warm-up.
    await scrapeWave(-1);
    const baseline = await settledRss();
    for (let n = 1; n <= WAVES; n++) await wave(n);
    const after = await settledRss();
    const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
    console.log(`server RSS ${mb(baseline)} -> ${mb(after)} (${(after / baseline).toFixed(3)}x)`);
    expect(after).toBeLessThanOrEqual(baseline * 1.1);

    // The detection below does see the server's children: the warm browser pool is still up.
    expect((await processesOf(privateTmp)).length).toBeGreaterThan(0);
    inspector.close();
    const exited = new Promise<number | string | null>((resolve) => {
      server.once('exit', resolve);
      setTimeout(() => resolve('still running 60 s after SIGTERM'), 60_000).unref();
    });
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Give killed children a moment to be reaped by whoever inherited them.
    await new Promise((r) => setTimeout(r, 500));
    expect(await processesOf(privateTmp)).toEqual([]);
    expect(await readdir(privateTmp)).toEqual([]);
    // Xvfb keeps a lock file in /tmp whatever TMPDIR says; a new one whose server is gone was left behind.
    const staleLocks: string[] = [];
    for (const name of await xLocks()) {
      if (xLocksBefore.has(name)) continue;
      const pid = Number((await readFile(`/tmp/${name}`, 'latin1').catch(() => '')).trim());
      if (
        !pid ||
        !(await readFile(`/proc/${pid}/stat`).then(
          () => true,
          () => false,
        ))
      )
        staleLocks.push(name);
    }
    expect(staleLocks).toEqual([]);
  }, 600_000);
});
