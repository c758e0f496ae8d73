import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { Meter } from '../billing/index.ts';
import type { Config } from '../config.ts';
import { scrape } from '../ops/index.ts';
import { createServices } from './server.ts';

/**
 * `webdata scrape URL`: one fetch in-process, without a server or a key, for shell pipelines.
 * Prints the markdown (or HTML), or the whole result as JSON with --json.
 */
export async function scrapeCommand(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      html: { type: 'boolean', default: false },
      all: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      metadata: { type: 'boolean', default: false },
    },
  });
  const url = positionals[0];
  if (!url) {
    console.error('usage: webdata scrape URL [--html] [--all] [--metadata] [--json]');
    process.exit(2);
  }
  const built = await createServices({ ...config, contentWorkers: 0 });
  try {
    const result = await scrape(
      { url, type: values.html ? 'html' : 'markdown', onlyMainContent: !values.all, extractMetadata: values.metadata },
      { userId: 'cli', signal: new AbortController().signal, meter: new Meter('cli'), log: pino({ level: 'silent' }), services: built.services },
    );
    if (values.json) console.log(JSON.stringify(result, null, 2));
    else if (result.success) console.log(result.markdown ?? result.html);
    else {
      console.error(`failed: ${result.error}`);
      process.exitCode = 1;
    }
  } finally {
    await built.close();
  }
}
