import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';
import type { Database } from '../../src/store/index.ts';
import { waitFor } from '../helpers/poll.ts';
import {
  type ApiAnswer,
  apiAt,
  freePort,
  type Settings,
  TEST_KEY,
  type TestServer,
} from '../helpers/server.ts';

/** The usage ledger's rows charged against a job, read from the database itself. */
export const chargesOf = (database: Database, jobId: string) =>
  database.db.selectFrom('usage_ledger').selectAll().where('ref', '=', jobId).execute();

/** Polls a job until it reaches a terminal status (or the deadline), returning the last answer. */
export async function waitForJob(
  t: Pick<TestServer, 'api'>,
  url: string,
  opts: { key?: string; timeoutMs?: number; until?: (job: any) => boolean } = {},
): Promise<any> {
  const until =
    opts.until ?? ((job: any) => ['completed', 'failed', 'cancelled'].includes(job.status));
  let last: unknown;
  return waitFor(
    async () => {
      const { status, json } = await t.api('GET', url, undefined, opts.key);
      if (status !== 200) throw new Error(`GET ${url} answered ${status}: ${JSON.stringify(json)}`);
      last = json;
      return until(json) && json;
    },
    {
      timeoutMs: opts.timeoutMs ?? 20_000,
      everyMs: 100,
      what: () => `the job to get there: ${JSON.stringify(last).slice(0, 500)}`,
    },
  );
}

/**
 * A job's webhook events once none is pending. The receiver sees a delivery before the
 * deliverer has recorded its answer, so a test that has seen the deliveries waits for the record.
 */
export function recordedWebhooks(t: Pick<TestServer, 'api'>, jobUrl: string): Promise<any> {
  return waitFor(
    async () => {
      const v = (await t.api('GET', `${jobUrl}/webhooks`)).json;
      return v.events.every((e: any) => e.state !== 'pending') && v;
    },
    { timeoutMs: 10_000, what: 'every event recorded as delivered or failed' },
  );
}

/** Starts a job with a POST to `path`, which must answer 202, and waits for it as waitForJob does. */
export async function runJob(
  t: Pick<TestServer, 'api'>,
  path: string,
  body: unknown,
  opts: { key?: string; timeoutMs?: number; until?: (job: any) => boolean } = {},
): Promise<any> {
  const started = await t.api('POST', path, body, opts.key);
  expect(started.status).toBe(202);
  return waitForJob(t, started.json.url, opts);
}

/** A job that finished with every one of its `items` items completed, at `cost`. */
export function expectCompleted(job: unknown, type: string, items: number, cost: number): void {
  expect(job).toMatchObject({ type, status: 'completed', total: items, completed: items, cost });
}

/** Every page of a job's results, following `next` from the first. */
export async function allPages(
  t: Pick<TestServer, 'api'>,
  url: string,
  limit: number,
): Promise<{ pages: any[]; data: any[] }> {
  const pages: any[] = [];
  let next: string | undefined = `${url}?limit=${limit}`;
  while (next) {
    const { status, json }: ApiAnswer<{ next?: string; data: any[] }> = await t.api('GET', next);
    if (status !== 200) throw new Error(`GET ${next} answered ${status}`);
    pages.push(json);
    next = json.next;
  }
  return { pages, data: pages.flatMap((p) => p.data) };
}

/**
 * The end of a 3-item batch whose item 1 the job queue gave up on: the job completes, item 1
 * fails naming the give-up at no cost, and only the other two are charged.
 */
export async function expectGivenUpMiddleItem(
  t: Pick<TestServer, 'api' | 'server'>,
  url: string,
  timeoutMs: number,
): Promise<void> {
  const job = await waitForJob(t, url, { timeoutMs });
  expect(job).toMatchObject({ status: 'completed', total: 3, completed: 3 });
  const { data } = await allPages(t, url, 10);
  expect(data.map((d: any) => d.success)).toEqual([true, false, true]);
  expect(data[1]).toMatchObject({ success: false, cost: 0 });
  expect(data[1].error).toMatch(/job queue gave up on this item after 11 attempts \(last: .*JSON/);
  expect(job.cost).toBeCloseTo(data[0].cost + data[2].cost, 6);
  const charges = await chargesOf(t.server.database, job.id);
  expect(charges.length).toBe(2);
}

export interface CliProcess {
  proc: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves when the output matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** SIGKILL: no cleanup of any kind runs, as in a machine losing power. */
  kill9(): Promise<void>;
}

/** Where a child process runs. */
export interface SpawnPlace {
  /** Command words it runs under (another host's, from `Hosts.exec`). */
  via?: string[];
  /** The checkout it runs from (another release's); this repository's root unless given. */
  cwd?: string;
}

/** Runs the real CLI (`webdata <args>`) as a child process with only the given settings. */
export function spawnCli(
  args: string[],
  env: Record<string, string>,
  place: SpawnPlace = {},
): CliProcess {
  return spawnNode(['src/cli/main.ts', ...args], env, place);
}

/** Runs `node <args>` from a checkout's root as a child process with only the given settings. */
export function spawnNode(
  args: string[],
  env: Record<string, string>,
  { via = [], cwd = fileURLToPath(new URL('../../', import.meta.url)) }: SpawnPlace = {},
): CliProcess {
  const [command, ...words] = [...via, 'node_modules/.bin/node', ...args];
  const proc = spawn(command!, words, {
    cwd,
    env: { PATH: process.env.PATH ?? '', WEBDATA_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    for (const l of listeners) l();
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    proc,
    output: () => out,
    waitFor(pattern, timeoutMs = 45_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(out)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${pattern} in:\n${out.slice(-2000)}`));
        }, timeoutMs);
        listeners.add(check);
        proc.once('exit', (code) => {
          if (!pattern.test(out))
            reject(new Error(`process exited (${code}) before ${pattern}:\n${out.slice(-2000)}`));
        });
        check();
      });
    },
    async kill9() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * The CLI processes a file starts, killed (-9) after its tests. Call it after `useServer`: vitest
 * runs afterAll hooks last-registered first, so the processes go before the server they talk to.
 */
export function useCliProcesses(): CliProcess[] {
  const running: CliProcess[] = [];
  afterAll(async () => {
    for (const p of running.splice(0)) await p.kill9();
  });
  return running;
}

/** A `webdata worker` process on the Postgres database of a server, once it runs items; `running` keeps it for cleanup. */
export async function spawnWorker(
  running: CliProcess[],
  server: Pick<TestServer, 'databaseUrl'>,
  env: Settings,
): Promise<CliProcess> {
  if (!server.databaseUrl) throw new Error('a worker needs a server on Postgres');
  const worker = spawnCli(['worker'], {
    DATABASE_URL: server.databaseUrl,
    WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
    WEBDATA_CONTENT_WORKERS: '0',
    ...env,
  });
  running.push(worker);
  await worker.waitFor(/webdata worker running job items/);
  return worker;
}

/**
 * An embedded `webdata serve` on a free port, as a real child process that can be killed and
 * started again on the same data: `serve()` starts one (recorded in `running` for cleanup) and
 * resolves once it listens.
 */
export async function embeddedServe(
  running: CliProcess[],
  env: Record<string, string>,
): Promise<{
  serve(): Promise<CliProcess>;
  crashAt(process: CliProcess, jobUrl: string, worst: (job: any) => boolean): Promise<CliProcess>;
  client: Pick<TestServer, 'api'>;
}> {
  const port = await freePort();
  const settings = {
    PORT: String(port),
    WEBDATA_API_KEYS: TEST_KEY,
    WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
    WEBDATA_CONTENT_WORKERS: '0',
    WEBDATA_SESSION_WARM_SPARES: '0',
    ...env,
  };
  const serve = async () => {
    const p = spawnCli(['serve'], settings);
    running.push(p);
    await p.waitFor(/webdata listening/);
    return p;
  };
  const client = { api: apiAt(`http://127.0.0.1:${port}`) };
  /**
   * Lets the job at `jobUrl` run until `worst` holds, kills `process` there with -9 as a crash
   * would, and starts the service again on the same data.
   */
  const crashAt = async (process: CliProcess, jobUrl: string, worst: (job: any) => boolean) => {
    await waitForJob(client, jobUrl, { until: worst });
    await process.kill9();
    expect(process.proc.signalCode).toBe('SIGKILL');
    return serve();
  };
  return { serve, crashAt, client };
}
