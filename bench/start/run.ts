/**
 * bench/start: cold start to healthy of the container image, against `npm start` on this machine
 * measured in the same run, rounds alternating so load from other work falls on both sides.
 *
 * - `npm start` (the baseline): `node src/cli/main.ts serve` on a fresh data folder (SQLite), from
 *   spawn to the first 200 of GET /health.
 * - The image: `podman run` of a fresh container with a fresh volume (SQLite), to the first 200
 *   of GET /health from this machine and to the image's own HEALTHCHECK passing
 *   (`podman healthcheck run`, as an orchestrator asks it).
 *
 *   node bench/start/run.ts [IMAGE]     (localhost/webdata:latest; ROUNDS=5; as root, with podman
 *                                        and the image built by scripts/image.sh)
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);
const image = process.argv[2] ?? 'localhost/webdata:latest';
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const root = new URL('../../', import.meta.url).pathname;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const min = (xs: number[]) => Math.min(...xs);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls until `check` holds; the time from `since` to then. */
async function until(check: () => Promise<boolean>, since: number, what: string): Promise<number> {
  while (!(await check())) {
    if (performance.now() - since > 120_000) throw new Error(`${what}: not within 120 s`);
    await sleep(25);
  }
  return performance.now() - since;
}

const answers = (port: number) => () =>
  fetch(`http://127.0.0.1:${port}/health`).then(
    (r) => r.ok,
    () => false,
  );

async function npmStart(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'wd-start-'));
  const port = await freePort();
  const started = performance.now();
  const proc = spawn('node_modules/.bin/node', ['src/cli/main.ts', 'serve'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', WEBDATA_DATA_DIR: dataDir, PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    return await until(answers(port), started, 'npm start');
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function container(): Promise<{ health: number; healthcheck: number }> {
  const name = `webdata-start-${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  const started = performance.now();
  await run('podman', [
    'run',
    '--detach',
    '--name',
    name,
    '--network',
    'host',
    '--env',
    `PORT=${port}`,
    '--env',
    'HOST=127.0.0.1',
    '--volume',
    `${name}:/var/lib/webdata`,
    image,
  ]);
  try {
    const health = await until(answers(port), started, 'the container answering /health');
    const healthcheck = await until(
      () =>
        run('podman', ['healthcheck', 'run', name]).then(
          () => true,
          () => false,
        ),
      started,
      'the HEALTHCHECK',
    );
    return { health, healthcheck };
  } finally {
    await run('podman', ['rm', '--force', '--time', '10', name]);
    await run('podman', ['volume', 'rm', '--force', name]);
  }
}

const host: number[] = [];
const health: number[] = [];
const healthcheck: number[] = [];
console.log(`bench/start: ${image}, ${ROUNDS} rounds, alternating\n`);
for (let r = 0; r < ROUNDS; r++) {
  host.push(await npmStart());
  const c = await container();
  health.push(c.health);
  healthcheck.push(c.healthcheck);
  console.log(
    `round ${r + 1}: npm start ${s(host.at(-1)!)}, container /health ${s(c.health)}, HEALTHCHECK ${s(c.healthcheck)}`,
  );
}
console.log(`
                       min       median
npm start (baseline)   ${s(min(host))}    ${s(median(host))}
container /health      ${s(min(health))}    ${s(median(health))}
container HEALTHCHECK  ${s(min(healthcheck))}    ${s(median(healthcheck))}
`);
const ratio = median(healthcheck) / median(host);
console.log(
  `RESULT container_over_npm_start=${ratio.toFixed(2)} container_healthy_median_s=${(median(healthcheck) / 1000).toFixed(2)} container_healthy_min_s=${(min(healthcheck) / 1000).toFixed(2)} npm_start_median_s=${(median(host) / 1000).toFixed(2)} npm_start_min_s=${(min(host) / 1000).toFixed(2)}`,
);
