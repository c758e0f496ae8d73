/**
 * Remote browser sessions: create and full-lifecycle latency through the service, against
 * launching chromium-headless-shell and connecting over CDP directly in the same run, the
 * proportional memory (PSS) one idle session costs, a Firefox session's create and PSS against
 * Chromium's in the same run, and a 50 MB file uploaded into a session and downloaded back through
 * the files API, against a plain copy of the same file on this machine.
 *
 *   node bench/sessions/run.ts [iterations]
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { groupPids, pssBytes } from '../../src/browser/index.ts';
import { startServer } from '../../src/cli/server.ts';
import { loadConfig } from '../../src/config.ts';
import { startFixtureSite } from '../../test/fixtures/site/server.ts';
import { freePort } from '../../test/helpers/server.ts';

const N = Number(process.argv[2] ?? 15);
const KEY = 'wd_bench_key_sessions_0123456789';
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

/** The baseline: start the browser ourselves with a DevTools port and read its endpoint. */
async function launchDirect(): Promise<{ ws: string; pgid: number; kill(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'wd-bench-'));
  const child = spawn(
    HEADLESS_SHELL,
    [
      '--remote-debugging-port=0',
      `--user-data-dir=${dir}`,
      '--no-first-run',
      '--no-sandbox',
      '--headless',
      'about:blank',
    ],
    {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const ws = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (c) => {
      text += String(c);
      const m = text.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) resolve(m[1]!);
    });
    child.once('exit', () => reject(new Error(text)));
  });
  child.stderr!.resume();
  return {
    ws,
    pgid: child.pid!,
    async kill() {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** PSS of the given processes together, in MiB. */
function pss(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + pssBytes(pid), 0) / (1024 * 1024);
}

const site = await startFixtureSite();
const dataDir = await mkdtemp(join(tmpdir(), 'wd-bench-data-'));
const config = loadConfig({
  PORT: String(await freePort()),
  WEBDATA_DATA_DIR: dataDir,
  WEBDATA_API_KEYS: KEY,
  WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
  WEBDATA_SESSION_WARM_SPARES: '1',
  WEBDATA_SESSIONS_MAX: '16',
  WEBDATA_SESSIONS_MAX_PER_USER: '16',
  WEBDATA_CONTENT_WORKERS: '0',
});
const server = await startServer(config, { logLevel: 'silent' });
const base = server.address;
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json() as Promise<any>;
};
/** Waits until every engine used so far has its spare on the shelf (`engines` of them). */
const spareReady = async (engines = 1) => {
  for (;;) {
    const list = (await (await fetch(`${base}/api/v1/browser-sandbox/sessions`)).json()) as {
      warmSpares: number;
    };
    if (list.warmSpares >= engines) return;
    await sleep(20);
  }
};
const page = `${site.origin}/session/app`;

const direct = { create: [] as number[], lifecycle: [] as number[] };
const service = {
  create: [] as number[],
  coldCreate: [] as number[],
  firefoxCreate: [] as number[],
  firefoxColdCreate: [] as number[],
  lifecycle: [] as number[],
};

// The first session starts the warm spares (none are launched at start-up).
const first = await api('POST', '/v1/browser-sandbox/session', {});
await api('DELETE', `/v1/browser-sandbox/session/${first.sessionId}`);
const firstFirefox = await api('POST', '/v1/browser-sandbox/session', { browser: 'firefox' });
await api('DELETE', `/v1/browser-sandbox/session/${firstFirefox.sessionId}`);

for (let i = 0; i < N; i++) {
  // Baseline create: a launched browser with its CDP endpoint known.
  let t0 = performance.now();
  let b = await launchDirect();
  direct.create.push(performance.now() - t0);
  await b.kill();

  // Baseline lifecycle: launch, connect over CDP, load a page, close.
  t0 = performance.now();
  b = await launchDirect();
  const pw = await chromium.connectOverCDP(b.ws);
  const p = pw.contexts()[0]!.pages()[0] ?? (await pw.contexts()[0]!.newPage());
  await p.goto(page);
  await pw.close();
  await b.kill();
  direct.lifecycle.push(performance.now() - t0);

  // Service create with the warm spares ready.
  await spareReady(2);
  t0 = performance.now();
  let s = await api('POST', '/v1/browser-sandbox/session', {});
  service.create.push(performance.now() - t0);
  await api('DELETE', `/v1/browser-sandbox/session/${s.sessionId}`);

  // Service create that cannot use the spare (non-default size): a launch per create.
  t0 = performance.now();
  s = await api('POST', '/v1/browser-sandbox/session', { width: 1024, height: 768 });
  service.coldCreate.push(performance.now() - t0);
  await api('DELETE', `/v1/browser-sandbox/session/${s.sessionId}`);

  // Firefox: from its spare, and a launch per create (non-default size), against Chromium's launch.
  await spareReady(2);
  for (const [into, size] of [
    [service.firefoxCreate, {}],
    [service.firefoxColdCreate, { width: 1024, height: 768 }],
  ] as const) {
    t0 = performance.now();
    s = await api('POST', '/v1/browser-sandbox/session', { browser: 'firefox', ...size });
    if (!s.sessionId) throw new Error(`firefox create failed: ${JSON.stringify(s)}`);
    into.push(performance.now() - t0);
    await api('DELETE', `/v1/browser-sandbox/session/${s.sessionId}`);
  }

  // Service lifecycle: create, connect, goto, close (close saves cookies and localStorage).
  await spareReady(2);
  t0 = performance.now();
  s = await api('POST', '/v1/browser-sandbox/session', {});
  const remote = await chromium.connectOverCDP(s.wsUrl);
  const rp = remote.contexts()[0]!.pages()[0] ?? (await remote.contexts()[0]!.newPage());
  await rp.goto(page);
  await api('DELETE', `/v1/browser-sandbox/session/${s.sessionId}`);
  await remote.close();
  service.lifecycle.push(performance.now() - t0);
}

// PSS per idle session: a few idle sessions of each kind, each measured over its own processes.
const idle: Record<string, number[]> = { headless: [], visible: [], firefox: [] };
for (const [kind, body] of [
  ['headless', { headless: true }],
  ['visible', { headless: false }],
  ['firefox', { headless: true, browser: 'firefox' }],
] as const) {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++)
    ids.push((await api('POST', '/v1/browser-sandbox/session', body)).sessionId);
  await sleep(1500);
  for (const id of ids) idle[kind]!.push(pss(await server.services.sessions.processIds(id)));
  for (const id of ids) await api('DELETE', `/v1/browser-sandbox/session/${id}`);
}
const directIdle = [await launchDirect(), await launchDirect(), await launchDirect()];
await sleep(1500);
const directPss =
  (await Promise.all(directIdle.map(async (b) => pss(await groupPids(b.pgid))))).reduce(
    (a, b) => a + b,
    0,
  ) / directIdle.length;
for (const b of directIdle) await b.kill();

// Files: a 50 MB upload and download through the API, each against copying the file here.
const FILE_BYTES = 50 * 1000 * 1000;
const work = await mkdtemp(join(tmpdir(), 'wd-bench-files-'));
const source = join(work, 'upload.bin');
await writeFile(source, randomBytes(FILE_BYTES));
const files = { copy: [] as number[], upload: [] as number[], download: [] as number[] };
/** curl's status code for a request whose body it writes to `out`. */
const curl = async (out: string, ...args: string[]) =>
  (
    await promisify(execFile)('curl', [
      '-s',
      '-o',
      out,
      '-w',
      '%{http_code}',
      '-H',
      `authorization: Bearer ${KEY}`,
      ...args,
    ])
  ).stdout;
const holder = await api('POST', '/v1/browser-sandbox/session', {});
const filesUrl = `${base}/api/v1/browser-sandbox/session/${holder.sessionId}/files`;
for (let i = 0; i < Math.max(3, Math.min(N, 7)); i++) {
  let t0 = performance.now();
  await copyFile(source, join(work, 'copy.bin'));
  files.copy.push(performance.now() - t0);
  await rm(join(work, 'copy.bin'));

  // curl as the client, so the figures are the service's and not a JavaScript client's streams.
  t0 = performance.now();
  const up = await curl('/dev/null', '-F', `file=@${source}`, filesUrl);
  if (up !== '200') throw new Error(`upload answered ${up}`);
  files.upload.push(performance.now() - t0);

  t0 = performance.now();
  const down = await curl(join(work, 'download.bin'), `${filesUrl}/upload.bin`);
  if (down !== '200') throw new Error(`download answered ${down}`);
  files.download.push(performance.now() - t0);
  await rm(join(work, 'download.bin'));
}
await api('DELETE', `/v1/browser-sandbox/session/${holder.sessionId}`);
await rm(work, { recursive: true, force: true });

await server.close();
await site.close();
await rm(dataDir, { recursive: true, force: true });

const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`sessions bench, ${N} iterations each, p50`);
console.log(`  direct launch (headless-shell, CDP endpoint ready)     ${fmt(p50(direct.create))}`);
console.log(
  `  service create, warm spare                             ${fmt(p50(service.create))}  ratio ${(p50(service.create) / p50(direct.create)).toFixed(2)}x of direct`,
);
console.log(
  `  service create, no spare (non-default size)            ${fmt(p50(service.coldCreate))}  ratio ${(p50(service.coldCreate) / p50(direct.create)).toFixed(2)}x of direct`,
);
console.log(
  `  service create, firefox, warm spare                    ${fmt(p50(service.firefoxCreate))}`,
);
console.log(
  `  service create, firefox, no spare (non-default size)   ${fmt(p50(service.firefoxColdCreate))}  ratio ${(p50(service.firefoxColdCreate) / p50(service.coldCreate)).toFixed(2)}x of chromium's launch`,
);
console.log(
  `  direct lifecycle (launch, connectOverCDP, goto, close)  ${fmt(p50(direct.lifecycle))}`,
);
console.log(
  `  service lifecycle (create, connect, goto, close+save)  ${fmt(p50(service.lifecycle))}  ratio ${(p50(service.lifecycle) / p50(direct.lifecycle)).toFixed(2)}x of direct`,
);
console.log(`PSS per idle session`);
console.log(`  direct headless-shell                                  ${directPss.toFixed(1)} MiB`);
console.log(
  `  service headless                                       ${avg(idle.headless!).toFixed(1)} MiB  ratio ${(avg(idle.headless!) / directPss).toFixed(2)}x of direct`,
);
console.log(
  `  service visible (Chromium + Xvfb)                      ${avg(idle.visible!).toFixed(1)} MiB`,
);
console.log(
  `  service headless firefox                               ${avg(idle.firefox!).toFixed(1)} MiB  ratio ${(avg(idle.firefox!) / avg(idle.headless!)).toFixed(2)}x of chromium's`,
);
console.log(`Files, 50 MB, p50 of ${files.copy.length}`);
console.log(`  plain file copy (copyFile)                             ${fmt(p50(files.copy))}`);
console.log(
  `  upload through the API (multipart)                     ${fmt(p50(files.upload))}  ratio ${(p50(files.upload) / p50(files.copy)).toFixed(2)}x of copy`,
);
console.log(
  `  download through the API                               ${fmt(p50(files.download))}  ratio ${(p50(files.download) / p50(files.copy)).toFixed(2)}x of copy`,
);
console.log(
  `RESULT sessions create_spare_ratio=${(p50(service.create) / p50(direct.create)).toFixed(2)} create_cold_ratio=${(p50(service.coldCreate) / p50(direct.create)).toFixed(2)} lifecycle_ratio=${(p50(service.lifecycle) / p50(direct.lifecycle)).toFixed(2)} pss_headless_ratio=${(avg(idle.headless!) / directPss).toFixed(2)} pss_visible_mib=${avg(idle.visible!).toFixed(1)} firefox_create_spare_ms=${p50(service.firefoxCreate).toFixed(0)} firefox_create_cold_ms=${p50(service.firefoxColdCreate).toFixed(0)} firefox_cold_vs_chromium_cold=${(p50(service.firefoxColdCreate) / p50(service.coldCreate)).toFixed(2)} firefox_pss_mib=${avg(idle.firefox!).toFixed(1)} firefox_pss_vs_chromium=${(avg(idle.firefox!) / avg(idle.headless!)).toFixed(2)} upload_ratio=${(p50(files.upload) / p50(files.copy)).toFixed(2)} download_ratio=${(p50(files.download) / p50(files.copy)).toFixed(2)}`,
);
