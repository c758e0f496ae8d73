import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Server, startServer } from '../../src/cli/server.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppOptions } from '../../src/http/index.ts';
import type { LedgerRow } from '../../src/store/index.ts';
import { useFixture } from './fixture.ts';
import { createTestDatabase } from './postgres.ts';

export const TEST_KEY = 'wd_test_key_user_one_0123456789';
export const TEST_KEY_2 = 'wd_test_key_user_two_0123456789';

/** Settings as the service reads them: environment variables by name. */
export type Settings = Record<string, string>;

export interface ApiAnswer<T> {
  status: number;
  headers: Headers;
  json: T;
}

/** Calls the API over HTTP with a key (the first test user's unless given; null for none). */
export type Api = <T = any>(
  method: string,
  path: string,
  body?: unknown,
  key?: string | null,
) => Promise<ApiAnswer<T>>;

export interface TestServer {
  server: Server;
  /** http://127.0.0.1:PORT */
  base: string;
  port: number;
  dataDir: string;
  /** The Postgres database it stores in, when it runs on Postgres. */
  databaseUrl?: string;
  /** The first test user's key; `TEST_KEY_2` is a second user's. */
  key: string;
  api: Api;
  /** The ledger rows charged to the user of a key. */
  ledger(key?: string): Promise<LedgerRow[]>;
  /** Stops the service and keeps its data folder and port, for `start` to run it again. */
  stop(): Promise<void>;
  /** Starts the service again on the same port and data. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A WEBDATA_TEST_RESOLVE value sending every one of these fixture host names to loopback. */
export const toLoopback = (hosts: string[]): string => hosts.map((h) => `${h}=127.0.0.1`).join(',');

/** A body as JSON when it is JSON, else as text: error pages and refusals need not be JSON. */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An API client for the service at `base`, in-process or not. */
export function apiAt(base: string): Api {
  return async (method, path, body, key = TEST_KEY) => {
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, json: jsonOrText(await res.text()) as any };
  };
}

/**
 * The service on a port that was free a moment ago; another process (a browser, an egress lane)
 * can take it between the probe and the listen, so a taken port is tried again with a new one.
 */
async function startOnFreePort(appOpts: AppOptions, env: (port: number) => Settings) {
  for (let attempt = 1; ; attempt++) {
    const config = loadConfig(env(await freePort()));
    try {
      return { server: await startServer(config, appOpts), config };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) throw err;
    }
  }
}

/** Starts the real service on loopback with a fresh data dir; loopback fetches allowed as tests need. */
export async function startTestServer(
  env: Settings = {},
  appOpts: AppOptions = { logLevel: 'silent' },
): Promise<TestServer> {
  const dataDir = env.WEBDATA_DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'webdata-test-')));
  const settings = (port: number): Settings => ({
    PORT: String(port),
    HOST: '127.0.0.1',
    WEBDATA_DATA_DIR: dataDir,
    WEBDATA_API_KEYS: `${TEST_KEY},${TEST_KEY_2}`,
    WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
    WEBDATA_FETCH_TIMEOUT_MS: '5000',
    WEBDATA_CONTENT_WORKERS: '1',
    // A warm spare is a browser process per test server; only session tests that want one ask.
    WEBDATA_SESSION_WARM_SPARES: '0',
    // Two cores shared by parallel test files and browsers stall any process's event loop now and
    // then; shedding on that would turn unrelated tests flaky. The load-shedding test sets its bounds.
    WEBDATA_SHED_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  const { server, config } = await startOnFreePort(appOpts, settings);
  const base = `http://127.0.0.1:${config.port}`;
  const t: TestServer = {
    server,
    base,
    port: config.port,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    key: TEST_KEY,
    api: apiAt(base),
    async ledger(key = TEST_KEY) {
      const user = await t.server.keys.authenticate(key);
      if (!user) throw new Error('no user has this key');
      return t.server.ledger.forUser(user.userId);
    },
    stop: () => t.server.close(),
    async start() {
      t.server = await startServer(loadConfig(settings(config.port)), appOpts);
    },
    async close() {
      await t.server.close();
      if (!env.WEBDATA_DATA_DIR) await rm(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

export interface ServerOptions {
  /** Settings over the test defaults; a function when they name a fixture started by an earlier hook. */
  settings?: Settings | (() => Settings);
  /** What it stores in: a SQLite file in its data folder, or a fresh Postgres database dropped after. */
  backend?: 'sqlite' | 'postgres';
  app?: AppOptions;
}

/**
 * The real service for the tests of a file (or of the describe block it is called in): started in
 * beforeAll on loopback with the two test users' keys, closed with its data in afterAll.
 */
export function useServer(opts: ServerOptions = {}): TestServer {
  return useFixture(async () => {
    const settings = typeof opts.settings === 'function' ? opts.settings() : (opts.settings ?? {});
    if (opts.backend !== 'postgres') return startTestServer(settings, opts.app);
    const database = await createTestDatabase();
    const t = await startTestServer({ DATABASE_URL: database.url, ...settings }, opts.app).catch(
      async (err: unknown) => {
        await database.drop();
        throw err;
      },
    );
    const close = t.close;
    t.close = async () => {
      await close();
      await database.drop();
    };
    return t;
  });
}
