import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Server, startServer } from '../src/cli/server.ts';
import { loadConfig } from '../src/config.ts';

/**
 * The real service on a free loopback port, as a bench measures it: its own data folder, one key,
 * private addresses allowed (the benches' sites are on loopback), no warm session browser (no
 * bench measures sessions through it, and it would be busy starting), silent logs. `close()`
 * stops it and removes the folder.
 */
export async function startBenchServer(
  key: string,
  settings: Record<string, string> = {},
): Promise<Server & { close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'webdata-bench-'));
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      WEBDATA_DATA_DIR: dataDir,
      WEBDATA_API_KEYS: key,
      WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
      WEBDATA_SESSION_WARM_SPARES: '0',
      ...settings,
    }),
    { logLevel: 'silent' },
  );
  const stop = server.close;
  return Object.assign(server, {
    async close() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  });
}
