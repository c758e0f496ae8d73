import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { startServer, type Server } from '../../src/cli/server.ts';
import type { AppOptions } from '../../src/http/index.ts';

export const TEST_KEY = 'wd_test_key_user_one_0123456789';
export const TEST_KEY_2 = 'wd_test_key_user_two_0123456789';

export interface TestServer {
  server: Server;
  /** http://127.0.0.1:PORT */
  base: string;
  dataDir: string;
  /** POST/GET against /api with a key (the first test user's unless given). */
  api(method: string, path: string, body?: unknown, key?: string | null): Promise<{ status: number; headers: Headers; json: any }>;
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

/**
 * The service on a port that was free a moment ago; another process (a browser, an egress lane)
 * can take it between the probe and the listen, so a taken port is tried again with a new one.
 */
async function startOnFreePort(appOpts: AppOptions, env: (port: number) => Record<string, string>) {
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
export async function startTestServer(env: Record<string, string> = {}, appOpts: AppOptions = { logLevel: 'silent' }): Promise<TestServer> {
  const dataDir = env.WEBDATA_DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'webdata-test-')));
  const { server, config } = await startOnFreePort(appOpts, (port) => ({
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
  }));
  const base = `http://127.0.0.1:${config.port}`;
  return {
    server,
    base,
    dataDir,
    async api(method, path, body, key = TEST_KEY) {
      const headers: Record<string, string> = {};
      if (key) headers.authorization = `Bearer ${key}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.status, headers: res.headers, json };
    },
    async close() {
      await server.close();
      if (!env.WEBDATA_DATA_DIR) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
