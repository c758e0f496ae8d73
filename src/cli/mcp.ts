import { httpClient } from '../api-client/index.ts';
import type { Config } from '../config.ts';
import { serveStdio } from '../mcp/index.ts';
import { CLIENT_SETTINGS, readSettings } from '../settings/index.ts';
import { startEmbedded } from './embedded.ts';

/**
 * `webdata mcp`: MCP over stdio for desktop agents. With WEBDATA_URL and WEBDATA_API_KEY it
 * speaks to that server; with neither it runs the whole service in this process.
 */
export async function mcpCommand(
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { url, apiKey: key } = readSettings(CLIENT_SETTINGS, env);
  if (url || key) {
    if (!url || !key) {
      console.error(
        'webdata mcp: set both WEBDATA_URL and WEBDATA_API_KEY, or neither for an embedded server',
      );
      process.exit(2);
    }
    await serveStdio(httpClient(url, key));
    return;
  }
  const embedded = await startEmbedded(config, 'mcp');
  try {
    await serveStdio(embedded.api);
  } finally {
    await embedded.close();
  }
}
