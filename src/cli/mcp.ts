import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { httpClient, injectClient, serveStdio, type Injector } from '../mcp/index.ts';
import { startServer } from './server.ts';

/**
 * The embedded server's own key, kept beside its database so its jobs stay its own from one run
 * to the next. Random rather than fixed: the same data directory may later be served over HTTP.
 */
function embeddedKey(dataDir: string): string {
  const file = join(dataDir, 'mcp-embedded.key');
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
 * `webdata mcp`: MCP over stdio for desktop agents. With WEBDATA_URL and WEBDATA_API_KEY it
 * speaks to that server; with neither it runs the whole service in this process, answering only
 * through stdio. stdout belongs to the protocol, so the embedded server logs to stderr.
 */
export async function mcpCommand(config: Config, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const url = env.WEBDATA_URL?.trim();
  const key = env.WEBDATA_API_KEY?.trim();
  if (url || key) {
    if (!url || !key) {
      console.error('webdata mcp: set both WEBDATA_URL and WEBDATA_API_KEY, or neither for an embedded server');
      process.exit(2);
    }
    await serveStdio(httpClient(url, key));
    return;
  }
  const server = await startServer(config, { listen: false, logStream: process.stderr });
  try {
    const localKey = embeddedKey(config.dataDir);
    await server.keys.ensure(localKey, 'mcp-embedded');
    await serveStdio(injectClient(server.app as unknown as Injector, `Bearer ${localKey}`));
  } finally {
    await server.close();
  }
}
