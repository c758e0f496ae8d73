import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ApiClient, type Injector, injectClient } from '../api-client/index.ts';
import type { Config } from '../config.ts';
import { startServer } from './server.ts';
import { surviveUnhandledRejections } from './signals.ts';

/**
 * The embedded server's own key, kept beside its database so its jobs stay its own from one run
 * to the next. Random rather than fixed: the same data directory may later be served over HTTP.
 */
function embeddedKey(dataDir: string): string {
  const file = join(dataDir, 'embedded.key');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const key = `wd_${randomBytes(24).toString('base64url')}`;
    writeFileSync(file, key, { mode: 0o600 });
    return key;
  }
}

/**
 * The whole service in this process, answering only injected requests (no port): for `webdata
 * mcp` and the client commands when no server is named. Logs go to stderr, never stdout, which
 * belongs to the protocol or the command's output. Only the MCP server, which runs as long as its
 * agent, runs monitor checks that come due: a one-off `command` would fire them as a side effect
 * of, say, listing jobs, and end before they do (docs/monitors.md).
 */
export async function startEmbedded(
  config: Config,
  use: 'command' | 'mcp',
): Promise<{ api: ApiClient; close(): Promise<void> }> {
  const server = await startServer(config, {
    listen: false,
    scheduled: use === 'mcp',
    logStream: process.stderr,
    logLevel: 'warn',
  });
  surviveUnhandledRejections(server.app.log);
  const key = embeddedKey(config.dataDir);
  await server.keys.ensure(key, 'embedded');
  return {
    api: injectClient(server.app as unknown as Injector, `Bearer ${key}`),
    close: () => server.close(),
  };
}
