import { Command, CommanderError } from 'commander';
import { type Config, loadConfig } from '../config.ts';
import { ConfigError } from '../settings/index.ts';
import { addClientCommands } from './client/commands.ts';
import { CliError, EXIT } from './client/errors.ts';
import { closeOnSignals, surviveUnhandledRejections } from './signals.ts';

function config(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError)
      throw new CliError(`configuration error: ${err.message}`, EXIT.usage);
    throw err;
  }
}

// The server side is imported by the commands that run it, so client commands start fast.
async function serve(): Promise<void> {
  const { startServer } = await import('./server.ts');
  const cfg = config();
  const server = await startServer(cfg);
  surviveUnhandledRejections(server.app.log);
  if (server.createdKey) {
    console.log(
      `\nNo API key existed, so one was created. It is shown only this once:\n\n  ${server.createdKey}\n`,
    );
  }
  server.app.log.info({ startupMs: server.startupMs }, 'started');
  console.log(`webdata listening on ${server.address} (public URL ${cfg.publicUrl})`);
  closeOnSignals(() => server.close());
}

const program = new Command('webdata')
  .description(
    'self-hosted web data service. Settings come from the environment; see README.md and docs/cli.md.',
  )
  .exitOverride()
  .showHelpAfterError();

program
  .command('serve')
  .description('start the API server (and run async jobs unless WEBDATA_WORKER=false)')
  .action(serve);
program
  .command('worker')
  .description('run async job items only (needs DATABASE_URL=postgres://...)')
  .action(async () => (await import('./worker.ts')).workerCommand(config()));
program
  .command('keys')
  .description('create --name NAME | list | revoke ID_OR_PREFIX')
  .argument('[args...]')
  .allowUnknownOption()
  .helpOption(false)
  .action(async (args: string[]) => (await import('./keys.ts')).keysCommand(config(), args));
program
  .command('mcp')
  .description('MCP over stdio: to WEBDATA_URL with WEBDATA_API_KEY, or an embedded server')
  .action(async () => (await import('./mcp.ts')).mcpCommand(config()));
addClientCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode =
      err.code === 'commander.helpDisplayed' ||
      err.code === 'commander.version' ||
      err.code === 'commander.help'
        ? EXIT.ok
        : EXIT.usage;
  } else if (err instanceof CliError) {
    process.stderr.write(`webdata: ${err.message}\n`);
    process.exitCode = err.exitCode;
  } else {
    throw err;
  }
}
