import { ConfigError, loadConfig, type Config } from '../config.ts';
import { keysCommand } from './keys.ts';
import { mcpCommand } from './mcp.ts';
import { scrapeCommand } from './scrape.ts';
import { startServer } from './server.ts';
import { workerCommand } from './worker.ts';

const HELP = `webdata: self-hosted web data service

  webdata serve                    start the API server (and run async jobs unless WEBDATA_WORKER=false)
  webdata worker                   run async job items only (needs DATABASE_URL=postgres://...)
  webdata keys create --name NAME  create a user with a new API key (printed once)
  webdata keys list                list keys (prefix, name, state)
  webdata keys revoke ID|PREFIX    revoke a key
  webdata mcp                      MCP over stdio: to WEBDATA_URL with WEBDATA_API_KEY, or an embedded server
  webdata scrape URL [--html] [--all] [--metadata] [--json]
                                   fetch one page in-process and print it

Settings come from the environment; see README.md.`;

async function serve(config: Config): Promise<void> {
  const server = await startServer(config);
  if (server.createdKey) {
    console.log(`\nNo API key existed, so one was created. It is shown only this once:\n\n  ${server.createdKey}\n`);
  }
  console.log(`webdata listening on ${server.address} (public URL ${config.publicUrl})`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(HELP);
    return;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  if (command === 'serve') return serve(config);
  if (command === 'keys') return keysCommand(config, rest);
  if (command === 'scrape') return scrapeCommand(config, rest);
  if (command === 'worker') return workerCommand(config);
  if (command === 'mcp') return mcpCommand(config);
  console.error(`unknown command "${command}"\n\n${HELP}`);
  process.exit(2);
}

await main(process.argv.slice(2));
