/**
 * Smoke test of the container image through its HTTP API, the way an operator would use it:
 * `node scripts/image-smoke.ts IMAGE` (scripts/image.sh runs it with the pinned Node). It starts
 * the image as the API server and a second container of it as `webdata worker`, both on a fresh
 * Postgres database, and checks: healthy (the image's own HEALTHCHECK), a plain scrape, a page
 * only JavaScript writes, a screenshot, a visible session watched through the live view, a job
 * done by the worker container, and a graceful stop (podman stop) that saves the session and
 * hands back the worker's running items. The web it reads is the test fixture site on loopback;
 * the containers share the host's network so they reach it and the Postgres server on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { startFixtureSite } from '../test/fixtures/site/server.ts';
import { waitFor } from '../test/helpers/poll.ts';

const run = promisify(execFile);
const image = process.argv[2];
if (!image) throw new Error('usage: node scripts/image-smoke.ts IMAGE');

/** What a session needs from podman for bubblewrap; see docs/deploy.md. */
export const SANDBOX_OPTIONS = ['--security-opt', 'unmask=/proc/*'];

const tag = randomBytes(4).toString('hex');
const apiKey = `wd-smoke-${randomBytes(12).toString('hex')}`;
const names = { server: `webdata-smoke-${tag}`, worker: `webdata-smoke-worker-${tag}` };
const volume = `webdata-smoke-${tag}`;

async function podman(...args: string[]): Promise<string> {
  return (await run('podman', args, { maxBuffer: 16 << 20 })).stdout.trim();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base =
    process.env.WEBDATA_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `webdata_image_${tag}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => admin(`drop database if exists ${name} with (force)`) };
}

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;

async function api(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(path.startsWith('http') ? path : `${origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** A job's answer once it has ended (completed, failed or cancelled). */
function jobEnded(url: string, timeoutMs: number, what: string) {
  return waitFor(
    async () => {
      const { json } = await api('GET', url);
      return ['completed', 'failed', 'cancelled'].includes(json.status) && json;
    },
    { timeoutMs, everyMs: 250, what },
  );
}

function step(name: string, ms?: number): void {
  console.log(`smoke: ok  ${name}${ms === undefined ? '' : ` (${(ms / 1000).toFixed(1)} s)`}`);
}

function containerArgs(name: string, env: Record<string, string>): string[] {
  return [
    'run',
    '--detach',
    '--name',
    name,
    '--network',
    'host',
    '--volume',
    `${volume}:/var/lib/webdata`,
    ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
  ];
}

async function healthy(name: string): Promise<boolean> {
  return run('podman', ['healthcheck', 'run', name]).then(
    () => true,
    () => false,
  );
}

/** How long podman stop waits after SIGTERM before it kills: well above a clean close. */
const STOP_TIMEOUT_S = 60;

/** podman stop's time, the container's exit code, and its log. */
async function stop(name: string): Promise<{ ms: number; exitCode: number; log: string }> {
  const started = performance.now();
  await podman('stop', '--time', String(STOP_TIMEOUT_S), name);
  const ms = performance.now() - started;
  const exitCode = Number(await podman('inspect', '--format', '{{.State.ExitCode}}', name));
  const { stdout, stderr } = await run('podman', ['logs', name], { maxBuffer: 16 << 20 });
  return { ms, exitCode, log: stdout + stderr };
}

const site = await startFixtureSite();
const db = await freshDatabase();
const env = {
  HOST: '127.0.0.1',
  PORT: String(port),
  DATABASE_URL: db.url,
  WEBDATA_API_KEYS: apiKey,
  WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
  WEBDATA_WORKER: 'false',
  WEBDATA_SESSION_WARM_SPARES: '0',
};
const failures: unknown[] = [];
try {
  await podman('volume', 'create', volume);
  const coldStart = performance.now();
  await podman(...containerArgs(names.server, env), ...SANDBOX_OPTIONS, image);
  await waitFor(() => healthy(names.server), { timeoutMs: 60_000, everyMs: 100, what: 'healthy' });
  step('cold start to healthy (HEALTHCHECK passes)', performance.now() - coldStart);
  const started = (await run('podman', ['logs', names.server])).stdout
    .split('\n')
    .find((line) => line.includes('"startupMs"'));
  if (started)
    console.log(
      `smoke:     the server's steps (ms): ${JSON.stringify(JSON.parse(started).startupMs)}`,
    );

  const health = await fetch(`${origin}/health`);
  assert.equal(health.status, 200);
  assert.equal((await health.json()).status, 'ok');
  step('GET /health');

  const plain = await api('POST', '/api/v1/scrape/single', { url: `${site.origin}/article.html` });
  assert.equal(plain.status, 200, JSON.stringify(plain.json));
  assert.equal(plain.json.success, true);
  step('scrape of a fixture page on loopback');

  const js = await api('POST', '/api/v1/scrape/single', { url: `${site.origin}/browser/js-only` });
  assert.equal(js.status, 200, JSON.stringify(js.json));
  assert.match(js.json.markdown, /Only a browser sees this sentence about kelp forests\./);
  step('scrape of a page only JavaScript writes (Chromium in the image)');

  const shot = await api('POST', '/api/v1/screenshot', {
    url: `${site.origin}/browser/tall`,
    width: 800,
    height: 600,
  });
  assert.equal(shot.status, 200, JSON.stringify(shot.json));
  const png = await fetch(shot.json.url);
  assert.equal(png.headers.get('content-type'), 'image/png');
  assert.equal((await png.arrayBuffer()).byteLength > 1000, true);
  step('screenshot, served from the data volume');

  const session = await api('POST', '/api/v1/browser-sandbox/session', { headless: false });
  assert.equal(session.status, 200, JSON.stringify(session.json));
  const remote = await chromium.connectOverCDP(session.json.wsUrl);
  const viewer = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell' });
  try {
    const context = remote.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${site.origin}/session/color`);
    await page.evaluate(() => localStorage.setItem('survives', 'restart'));
    const view = await viewer.newPage();
    await view.goto(session.json.liveViewUrl);
    await view.waitForSelector('body[data-state="connected"]');
    await waitFor(
      () =>
        view.evaluate(() => {
          const canvas = document.querySelector('#screen canvas') as HTMLCanvasElement | null;
          if (!canvas?.width) return false;
          const [r, g, b] = canvas
            .getContext('2d')!
            .getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data;
          return r === 255 && g === 0 && b === 170;
        }),
      { what: 'the session page in the live view' },
    );
  } finally {
    await viewer.close();
    await remote.close();
  }
  step('visible session in the bubblewrap sandbox, driven over CDP and seen in the live view');

  await podman(...containerArgs(names.worker, env), '--no-healthcheck', image, 'worker');
  const job = await api('POST', '/api/v1/scrape/async/batch', {
    urls: [`${site.origin}/browser/js-only?job=1`, `${site.origin}/article.html?job=1`],
  });
  assert.equal(job.status, 202, JSON.stringify(job.json));
  const done = await jobEnded(job.json.url, 90_000, 'the job');
  assert.equal(done.status, 'completed', JSON.stringify(done));
  assert.equal(done.completed, 2);
  step('a job on Postgres, done by the worker container (the server runs no items)');

  const server = await stop(names.server);
  assert.equal(server.exitCode, 0, `killed after ${server.ms} ms:\n${server.log}`);
  step('server stopped by SIGTERM (podman stop), exit 0', server.ms);
  await podman('start', names.server);
  await waitFor(() => healthy(names.server), { timeoutMs: 60_000, everyMs: 100, what: 'healthy' });
  const saved = await api('GET', `/api/v1/browser-sandbox/session/${session.json.sessionId}`);
  assert.equal(saved.json.status, 'closed');
  assert.equal(saved.json.closeReason, 'error');
  assert.equal(saved.json.hasStorageState, true);
  const resumed = await api(
    'POST',
    `/api/v1/browser-sandbox/session/${session.json.sessionId}/resume`,
  );
  assert.equal(resumed.status, 200, JSON.stringify(resumed.json));
  const again = await chromium.connectOverCDP(resumed.json.wsUrl);
  try {
    const page = await again.contexts()[0]!.newPage();
    await page.goto(`${site.origin}/session/app`);
    assert.equal(await page.evaluate(() => localStorage.getItem('survives')), 'restart');
  } finally {
    await again.close();
  }
  await api('DELETE', `/api/v1/browser-sandbox/session/${session.json.sessionId}`);
  step('the session saved at stop resumes, with its storage, after a restart');

  // Items that take a while, so the worker is stopped while it runs them.
  const slow = await api('POST', '/api/v1/scrape/async/batch', {
    urls: Array.from({ length: 4 }, (_, i) => `${site.origin}/browser/slow-js?ms=4000&i=${i}`),
  });
  assert.equal(slow.status, 202, JSON.stringify(slow.json));
  await sleep(1500);
  const worker = await stop(names.worker);
  assert.equal(worker.exitCode, 0, `killed after ${worker.ms} ms:\n${worker.log}`);
  step('worker stopped by SIGTERM (podman stop), exit 0', worker.ms);
  await podman('start', names.worker);
  const after = await jobEnded(slow.json.url, 120_000, 'the job after the worker came back');
  assert.equal(after.status, 'completed', JSON.stringify(after));
  assert.equal(after.completed, 4);
  step('items the stopped worker held were handed back and done after its restart');
} catch (err) {
  failures.push(err);
  for (const name of Object.values(names)) {
    const log = await run('podman', ['logs', '--tail', '40', name]).catch(() => undefined);
    if (log) console.error(`--- last log lines of ${name}:\n${log.stdout}${log.stderr}`);
  }
} finally {
  for (const name of Object.values(names))
    await podman('rm', '--force', '--time', '5', name).catch(() => undefined);
  await podman('volume', 'rm', '--force', volume).catch(() => undefined);
  await db.drop().catch(() => undefined);
  await site.close();
}
if (failures.length > 0) {
  console.error('smoke: FAILED', failures[0]);
  process.exit(1);
}
console.log('smoke: all passed');
