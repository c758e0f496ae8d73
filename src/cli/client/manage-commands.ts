import type { Command } from 'commander';
import { action, type Body, int, note } from './command-kit.ts';
import { EXIT } from './errors.ts';
import { readJob, waitForJob } from './jobs.ts';
import { pagesText, print, printJson } from './output.ts';

/** `webdata jobs` and `webdata session`: what a user looks after once it is started. */
export function addManageCommands(program: Command): void {
  const jobs = program.command('jobs').description('background jobs');
  jobs
    .command('list')
    .option(
      '--type <type>',
      'scrape-single, scrape-batch, sequence, sequence-batch, search-batch, crawl, extract',
    )
    .option('-l, --limit <n>', 'how many', int('limit'))
    .action(
      action(async (s, g, o: { type?: string; limit?: number }) => {
        const q = new URLSearchParams({
          ...(o.type ? { type: o.type } : {}),
          ...(o.limit ? { limit: String(o.limit) } : {}),
        });
        const res = await s.call<{ jobs: Array<Body> }>(
          'GET',
          `/api/v1/scrape/async/jobs${q.size ? `?${q}` : ''}`,
        );
        if (g.json) printJson(res);
        else
          print(
            res.jobs
              .map(
                (j) =>
                  `${String(j.id)}  ${String(j.type)}  ${String(j.status)}  ${String(j.completed)}/${String(j.total)}  ${String(j.createdAt)}`,
              )
              .join('\n') || 'no jobs',
          );
      }),
    );
  jobs
    .command('get')
    .argument('<id>')
    .option('-w, --wait', 'wait until it ends, with progress')
    .action(
      action(async (s, g, id: string, o: { wait?: boolean }) => {
        const job = o.wait ? await waitForJob(s, id) : await readJob(s, id);
        if (g.json) printJson(job);
        else {
          print(
            `job ${job.id}: ${job.type} ${job.status} (${job.completed}/${job.total})${job.error ? ` ${job.error}` : ''}`,
          );
          const pages = job.data.filter(
            (d): d is Body => d !== null && typeof d === 'object' && 'url' in d && !('query' in d),
          );
          if (pages.length) print(pagesText(pages as never));
        }
        note(job as unknown as Body);
        if (job.status === 'failed' || job.status === 'cancelled') process.exitCode = EXIT.failed;
      }),
    );
  jobs
    .command('cancel')
    .argument('<id>')
    .action(
      action(async (s, g, id: string) => {
        const res = await s.call('DELETE', `/api/v1/scrape/async/job/${encodeURIComponent(id)}`);
        if (g.json) printJson(res);
        else print(`job ${id} cancelled`);
      }),
    );

  const session = program.command('session').description('remote browser sessions');
  session
    .command('create')
    .option('--width <px>', 'viewport width (800-3840)', int('width'))
    .option('--height <px>', 'viewport height (600-2160)', int('height'))
    .option('--visible', 'a visible browser with a live view')
    .option('--browser <engine>', 'chromium, firefox, camoufox, lightpanda')
    .action(
      action(
        async (
          s,
          g,
          o: { width?: number; height?: number; visible?: boolean; browser?: string },
        ) => {
          const res = await s.call('POST', '/api/v1/browser-sandbox/session', {
            ...(o.width ? { width: o.width } : {}),
            ...(o.height ? { height: o.height } : {}),
            ...(o.visible ? { headless: false } : {}),
            ...(o.browser ? { browser: o.browser } : {}),
          });
          if (g.json) printJson(res);
          else
            print(
              `session ${String(res.sessionId)}\nwsUrl: ${String(res.wsUrl)}${res.liveViewUrl ? `\nlive view: ${String(res.liveViewUrl)}` : ''}\ncost per minute: $${String(res.costPerMin)}`,
            );
        },
      ),
    );
  for (const [name, method] of [
    ['get', 'GET'],
    ['close', 'DELETE'],
  ] as const) {
    session
      .command(name)
      .argument('<id>')
      .action(
        action(async (s, g, id: string) => {
          const res = await s.call(
            method,
            `/api/v1/browser-sandbox/session/${encodeURIComponent(id)}`,
          );
          if (g.json) printJson(res);
          else
            print(
              `session ${String(res.sessionId)}: ${String(res.status)}${res.closeReason ? ` (${String(res.closeReason)})` : ''}, total cost $${String(res.totalCost)}`,
            );
        }),
      );
  }
}
