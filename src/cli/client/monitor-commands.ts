import type { Command } from 'commander';
import { action, type Body, choice, int } from './command-kit.ts';
import { print, printJson } from './output.ts';

interface CreateOptions {
  every?: number;
  cron?: string;
  timezone?: string;
  crawl?: boolean;
  limit?: number;
  webhook?: string;
  notify?: string;
  name?: string;
}

const line = (m: Body) => {
  const schedule = m.schedule as Body;
  const when = schedule.cron
    ? `cron ${String(schedule.cron)} ${String(schedule.timezone)}`
    : `every ${String(schedule.intervalSeconds)} s`;
  const what = m.urls ? (m.urls as string[]).join(',') : `crawl ${String((m.crawl as Body).url)}`;
  const error = m.lastError ? `  ${String(m.lastError)}` : '';
  return `${String(m.id)}  ${String(m.status)}  ${when}  ${String(m.checks)} checks  ${what}${error}`;
};

/** `webdata monitor`: pages checked on a schedule, their changes sent to a webhook. */
export function addMonitorCommands(program: Command): void {
  const monitor = program
    .command('monitor')
    .description('watch pages on a schedule (see docs/monitors.md)');
  monitor
    .command('create')
    .argument('<urls...>', 'pages to check (with --crawl, the one start URL)')
    .option('--every <seconds>', 'seconds between checks', int('every'))
    .option('--cron <expression>', 'cron expression instead of --every')
    .option('--timezone <zone>', 'IANA time zone of --cron (default UTC)')
    .option('--crawl', 'check the pages a crawl from the URL finds')
    .option('-l, --limit <n>', 'with --crawl: most pages per check', int('limit'))
    .option('--webhook <url>', 'where monitor.change events are sent, signed')
    .option('--notify <when>', 'change (default) or always', choice('notify', ['change', 'always']))
    .option('--name <name>', 'a name to tell it by')
    .action(
      action(async (s, g, urls: string[], o: CreateOptions) => {
        const body = {
          ...(o.crawl
            ? { crawl: { url: urls[0], ...(o.limit ? { limit: o.limit } : {}) } }
            : { urls }),
          schedule:
            o.cron !== undefined
              ? { cron: o.cron, ...(o.timezone ? { timezone: o.timezone } : {}) }
              : { intervalSeconds: o.every },
          ...(o.webhook ? { webhook: { url: o.webhook } } : {}),
          ...(o.notify ? { notify: o.notify } : {}),
          ...(o.name ? { name: o.name } : {}),
        };
        const res = await s.call<{ monitor: Body; webhookSecret?: string }>(
          'POST',
          '/api/v1/monitors',
          body,
        );
        if (g.json) printJson(res);
        else print(line(res.monitor));
        if (res.webhookSecret)
          process.stderr.write(`webhook signing secret (shown once): ${res.webhookSecret}\n`);
      }),
    );
  monitor
    .command('list')
    .option('-l, --limit <n>', 'how many', int('limit'))
    .action(
      action(async (s, g, o: { limit?: number }) => {
        const res = await s.call<{ monitors: Body[] }>(
          'GET',
          `/api/v1/monitors${o.limit ? `?limit=${o.limit}` : ''}`,
        );
        if (g.json) printJson(res);
        else print(res.monitors.map(line).join('\n') || 'no monitors');
      }),
    );
  /** A command on one monitor that prints the monitor as the server answers it. */
  const onMonitor = (method: 'GET' | 'PATCH', body?: Body) =>
    action(async (s, g, id: string) => {
      const path = `/api/v1/monitors/${encodeURIComponent(id)}`;
      const res = await s.call<{ monitor: Body }>(method, path, body);
      if (g.json) printJson(res);
      else print(line(res.monitor));
    });
  monitor.command('get').argument('<id>').action(onMonitor('GET'));
  monitor
    .command('pause')
    .argument('<id>')
    .action(onMonitor('PATCH', { paused: true }));
  monitor
    .command('resume')
    .argument('<id>')
    .action(onMonitor('PATCH', { paused: false }));
  monitor
    .command('delete')
    .argument('<id>')
    .action(
      action(async (s, g, id: string) => {
        const res = await s.call('DELETE', `/api/v1/monitors/${encodeURIComponent(id)}`);
        if (g.json) printJson(res);
        else print(`monitor ${id} deleted`);
      }),
    );
  monitor
    .command('checks')
    .argument('<id>')
    .option('-l, --limit <n>', 'how many, newest first', int('limit'))
    .action(
      action(async (s, g, id: string, o: { limit?: number }) => {
        const res = await s.call<{ checks: Body[] }>(
          'GET',
          `/api/v1/monitors/${encodeURIComponent(id)}/checks${o.limit ? `?limit=${o.limit}` : ''}`,
        );
        if (g.json) {
          printJson(res);
          return;
        }
        const text = res.checks.map((c) => {
          const pages = (c.pages as Body[])
            .map((p) => `    ${String(p.status)}  ${String(p.url)}`)
            .join('\n');
          return `${String(c.scheduledAt)}  ${String(c.status)}  ${String(c.changed)} changed  $${String(c.cost)}${c.error ? `  ${String(c.error)}` : ''}${pages ? `\n${pages}` : ''}`;
        });
        print(text.join('\n') || 'no checks yet');
      }),
    );
}
