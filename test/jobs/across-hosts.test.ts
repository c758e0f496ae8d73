import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Hosts, startHosts } from '../helpers/hosts.ts';
import { waitFor } from '../helpers/poll.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { type Relay, relay } from '../helpers/relay.ts';
import { type Api, apiAt, TEST_KEY } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { allPages, type CliProcess, spawnCli, spawnNode, waitForJob } from './helpers.ts';

/**
 * Scale-out across machines, each machine a network namespace with its own address on one shared
 * link: Postgres, the API server (which runs no items), two workers, the fixture site standing in
 * for the web, and a client host through which this test calls the API. The database host serves
 * a fresh database of the machine's Postgres on its own address (relayed through a unix socket):
 * a cluster made per run (initdb) took over 15 s on a loaded machine.
 */
const HOSTS = ['db', 'api', 'w1', 'w2', 'site', 'client'];
const API_PORT = 8080;
const SITE_PORT = 8081;

/** A line the fixture site printed about one fetch of a slow page. */
interface Fetch {
  at: 'arrived' | 'answered' | 'cut';
  path: string;
  from: string;
}

let hosts: Hosts | undefined;
let dir: Awaited<ReturnType<typeof tempDir>> | undefined;
/** Relays in this process, into the hosts. */
const locals: Relay[] = [];
let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
/** The database as the hosts reach it: on the database host's address. */
let databaseUrl: string;
let site: CliProcess;
let api: Api;

const at = (name: string) => hosts!.address(name);

/** Starts a process on a host; resolves once it printed `ready`. */
async function onHost(
  name: string,
  args: string[],
  ready: RegExp,
  env: Record<string, string> = {},
  cli = true,
): Promise<CliProcess> {
  const p = (cli ? spawnCli : spawnNode)(args, env, { via: hosts!.exec(name) });
  // Generous: a loaded machine (two cores shared by parallel test files) can take a minute to start Node.
  await p.waitFor(ready, 180_000);
  return p;
}

async function startWorker(name: string): Promise<CliProcess> {
  const data = join(dir!.path, name);
  await mkdir(data, { recursive: true });
  return onHost(name, ['worker'], /webdata worker running job items/, {
    DATABASE_URL: databaseUrl,
    WEBDATA_DATA_DIR: data,
    WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
    WEBDATA_CONTENT_WORKERS: '0',
    WEBDATA_JOB_CONCURRENCY: '2',
    // Above the time w1 is held mid-fetch before it is killed, however slow the machine.
    WEBDATA_FETCH_TIMEOUT_MS: '60000',
    WEBDATA_PAGE_BUDGET_MS: '60000',
    // The shortest allowed: a lost host's items are back in line about 12 s after it went silent.
    WEBDATA_JOB_HEARTBEAT_SECONDS: '10',
  });
}

const fetches = (): Fetch[] =>
  site
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{"at"'))
    .map((l) => JSON.parse(l) as Fetch);

/** The ledger rows charged for a job: one per item, however many times an item ran. */
async function charges(jobId: string): Promise<{ n: number; micros: number }> {
  const c = new pg.Client({ connectionString: database!.url });
  await c.connect();
  try {
    const { rows } = await c.query(
      'select count(*)::int as n, coalesce(sum(cost_micros), 0)::int as micros from usage_ledger where ref = $1',
      [jobId],
    );
    return rows[0];
  } finally {
    await c.end();
  }
}

async function scrapeJob(paths: string[]): Promise<{ id: string; url: string }> {
  const urls = paths.map((p) => `http://${at('site')}:${SITE_PORT}${p}`);
  const created = await api('POST', '/api/v1/scrape/async/batch', { urls });
  expect(created.status).toBe(202);
  return created.json;
}

beforeAll(async () => {
  hosts = await startHosts(HOSTS);
  dir = await tempDir('wd-hosts-');
  database = await createTestDatabase();
  const machine = new URL(database.url);
  const pgSocket = join(dir.path, 'pg.sock');
  locals.push(
    await relay({ path: pgSocket }, { host: machine.hostname, port: Number(machine.port || 5432) }),
  );
  await onHost(
    'db',
    ['test/fixtures/hosts/relay.ts', `${at('db')}:5432`, pgSocket],
    /relaying/,
    {},
    false,
  );
  databaseUrl = Object.assign(new URL(database.url), { host: `${at('db')}:5432` }).href;
  const apiData = join(dir.path, 'api');
  await mkdir(apiData);
  const socket = join(dir.path, 'api.sock');
  [site] = await Promise.all([
    onHost(
      'site',
      ['test/fixtures/hosts/site.ts', at('site'), String(SITE_PORT)],
      /listening/,
      {},
      false,
    ),
    onHost('api', ['serve'], /webdata listening/, {
      HOST: at('api'),
      PORT: String(API_PORT),
      DATABASE_URL: databaseUrl,
      WEBDATA_DATA_DIR: apiData,
      WEBDATA_API_KEYS: TEST_KEY,
      WEBDATA_WORKER: 'false',
      WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
      WEBDATA_CONTENT_WORKERS: '0',
      WEBDATA_SESSION_WARM_SPARES: '0',
      // Parallel test files load the machine, not this deployment: no shedding on that.
      WEBDATA_SHED_EVENT_LOOP_DELAY_MS: '0',
    }),
    onHost(
      'client',
      ['test/fixtures/hosts/relay.ts', socket, `${at('api')}:${API_PORT}`],
      /relaying/,
      {},
      false,
    ),
    startWorker('w1'),
    startWorker('w2'),
  ]);
  const local = await relay({ host: '127.0.0.1', port: 0 }, { path: socket });
  locals.push(local);
  const { port } = local.server.address() as { port: number };
  api = apiAt(`http://127.0.0.1:${port}`);
}, 300_000);

afterAll(async () => {
  for (const r of locals) await r.close();
  // Every process of the file runs on a host: removing the hosts ends them all.
  await hosts?.close();
  await database?.drop();
  await dir?.close();
});

describe('scale-out across hosts on one Postgres', () => {
  it('a job started on the API host is run by the worker hosts; losing one mid-job loses and double-charges nothing; the API keeps answering; a worker host that comes back runs the next job', {
    timeout: 240_000,
  }, async () => {
    // The site never answers w1 for these pages, so w1 is mid-fetch when it goes.
    const paths = Array.from(
      { length: 8 },
      (_, i) => `/slow-origin/first-${i}?ms=1500&hold=${at('w1')}`,
    );
    const first = await scrapeJob(paths);

    // w1 loses power while it is fetching a page.
    await waitFor(() => fetches().some((f) => f.from === at('w1')), {
      timeoutMs: 60_000,
      what: () => `w1 to fetch a page:\n${site.output()}`,
    });
    await hosts!.kill('w1');

    // Until the job completes the API host answers every poll of it (waitForJob fails on any
    // non-200) and its health check.
    const health: number[] = [];
    const probing = setInterval(
      () => void api('GET', '/health', undefined, null).then((r) => health.push(r.status)),
      500,
    );
    const job = await waitForJob({ api }, first.url, { timeoutMs: 60_000 }).finally(() =>
      clearInterval(probing),
    );
    expect(job).toMatchObject({ status: 'completed', total: 8, completed: 8 });
    expect(health.length).toBeGreaterThan(5);
    expect(new Set(health)).toEqual(new Set([200]));

    const { data } = await allPages({ api }, first.url, 100);
    expect(data.map((d: any) => d.success)).toEqual(paths.map(() => true));
    for (const d of data) expect(d.markdown).toContain('It took its time to answer');

    const seen = fetches();
    // Every page w1 was fetching was cut off with it, then fetched again, by w2.
    const lost = seen.filter((f) => f.from === at('w1') && f.at === 'arrived').map((f) => f.path);
    expect(lost.length).toBeGreaterThan(0);
    for (const path of lost) {
      expect(seen).toContainEqual({ at: 'cut', path, from: at('w1') });
      expect(seen).toContainEqual({ at: 'answered', path, from: at('w2') });
    }
    // Only worker hosts fetched pages, never the API host.
    expect(new Set(seen.map((f) => f.from))).toEqual(new Set([at('w1'), at('w2')]));
    // One charge per item although w1's ran twice; the job's cost is their sum.
    const charged = await charges(job.id);
    expect(charged.n).toBe(8);
    expect(charged.micros / 1e6).toBeCloseTo(job.cost, 6);

    // w1 comes back, and w2 goes: the next job can only be run by w1.
    await startWorker('w1');
    await hosts!.kill('w2');
    const before = seen.length;
    const secondPaths = Array.from({ length: 4 }, (_, i) => `/slow-origin/second-${i}?ms=200`);
    const second = await scrapeJob(secondPaths);
    const done = await waitForJob({ api }, second.url, { timeoutMs: 60_000 });
    expect(done).toMatchObject({ status: 'completed', total: 4, completed: 4 });
    const later = fetches().slice(before);
    expect(
      later
        .filter((f) => f.at === 'answered')
        .map((f) => [f.path, f.from])
        .sort(),
    ).toEqual(secondPaths.map((p) => [p.split('?')[0], at('w1')]).sort());
    expect((await charges(done.id)).n).toBe(4);
  });
});
