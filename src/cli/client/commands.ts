import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { MethodChoice } from '../../contract/index.ts';
import { addCaptureCommands } from './capture-commands.ts';
import { action, type Body, choice, int, list, note, repeated } from './command-kit.ts';
import { CliError, EXIT } from './errors.ts';
import { waitForJob } from './jobs.ts';
import { addManageCommands } from './manage-commands.ts';
import { addMonitorCommands } from './monitor-commands.ts';
import { pagesText, pageText, print, printJson } from './output.ts';

const METHODS = MethodChoice.anyOf.map((m) => m.const);

function contentOptions(cmd: Command): Command {
  return cmd
    .option('--html', 'HTML instead of markdown')
    .option('-f, --formats <list>', 'several formats: markdown,html,rawHtml,links,listing', list)
    .option('--all', 'the whole page, not only its main content')
    .option(
      '--comments',
      "keep readers' comment threads under a story, and a product's reviews, in the main content",
    )
    .option(
      '--include <selectors>',
      'keep only elements matching these CSS selectors (comma-separated)',
      list,
    )
    .option(
      '--exclude <selectors>',
      'drop elements matching these CSS selectors (comma-separated)',
      list,
    )
    .option('--metadata', 'add page metadata')
    .option(
      '--method <method>',
      'engine: auto (default: HTTP, then the browser, then browser-stealth as needed), http, browser or browser-stealth alone',
      choice('method', METHODS),
    )
    .option(
      '--max-age <ms>',
      'serve a cached result at most this many milliseconds old instead of fetching',
      int('max-age'),
    )
    .option('--no-store-in-cache', 'do not keep the result for later requests');
}

interface ContentOptions {
  html?: boolean;
  formats?: string[];
  all?: boolean;
  comments?: boolean;
  include?: string[];
  exclude?: string[];
  metadata?: boolean;
  method?: string;
  maxAge?: number;
  /** False with --no-store-in-cache. */
  storeInCache: boolean;
}

function contentBody(o: ContentOptions): Body {
  return {
    ...(o.formats ? { formats: o.formats } : o.html ? { type: 'html' } : {}),
    ...(o.all ? { onlyMainContent: false } : {}),
    ...(o.comments ? { includeComments: true } : {}),
    ...(o.include ? { includeTags: o.include } : {}),
    ...(o.exclude ? { excludeTags: o.exclude } : {}),
    ...(o.metadata ? { extractMetadata: true } : {}),
    ...(o.method ? { method: o.method } : {}),
    ...(o.maxAge !== undefined ? { maxAge: o.maxAge } : {}),
    ...(o.storeInCache ? {} : { storeInCache: false }),
  };
}

async function urlsFrom(args: string[], file?: string): Promise<string[]> {
  const fromFile = file
    ? (await readFile(file === '-' ? '/dev/stdin' : file, 'utf8'))
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  const urls = [...args, ...fromFile];
  if (urls.length === 0)
    throw new CliError('give at least one URL (arguments or --input FILE)', EXIT.usage);
  return urls;
}

export function addClientCommands(program: Command): void {
  program
    .option('--url <url>', 'server base URL (default: WEBDATA_URL; none: an embedded server)')
    .option('--key <key>', 'API key (default: WEBDATA_API_KEY)')
    .option('--json', 'print the API response as JSON');

  contentOptions(program.command('scrape').description('fetch one page').argument('<url>'))
    .option('--summary <query>', 'an LLM answer about the page (needs an LLM on the server)')
    .option('-o, --output <file>', 'write the content to a file')
    .action(
      action(
        async (s, g, url: string, o: ContentOptions & { summary?: string; output?: string }) => {
          const page = await s.call('POST', '/api/v1/scrape/single', {
            url,
            ...contentBody(o),
            ...(o.summary ? { summary: { query: o.summary } } : {}),
          });
          if (g.json) printJson(page);
          else if (o.output && page.success) await writeFile(o.output, pageText(page as never));
          else print(pageText(page as never));
          note(page);
          if (!page.success) process.exitCode = EXIT.failed;
        },
      ),
    );

  contentOptions(
    program
      .command('batch')
      .description('fetch many pages as a background job, with progress')
      .argument('[urls...]'),
  )
    .option('-i, --input <file>', 'read URLs from a file, one per line (- for stdin)')
    .action(
      action(async (s, g, args: string[], o: ContentOptions & { input?: string }) => {
        const urls = await urlsFrom(args, o.input);
        const created = await s.call<{ id: string }>('POST', '/api/v1/scrape/async/batch', {
          urls,
          ...contentBody(o),
        });
        const job = await waitForJob(s, created.id);
        const pages = job.data as Array<{ success: boolean } & Body>;
        if (g.json) printJson(job);
        else print(pagesText(pages as never));
        note(job as unknown as Body);
        if (job.status !== 'completed' || pages.some((p) => !p?.success))
          process.exitCode = EXIT.failed;
      }),
    );

  contentOptions(
    program
      .command('crawl')
      .description("fetch a site's pages as a background job, with progress")
      .argument('<url>'),
  )
    .option('-l, --limit <n>', 'at most this many pages (1-10000, default 100)', int('limit'))
    .option(
      '-d, --depth <n>',
      'at most this many link hops from the start URL (default 10)',
      int('depth'),
    )
    .option('--include-paths <regex>', 'only crawl paths matching this (repeatable)', repeated)
    .option('--exclude-paths <regex>', 'do not crawl paths matching this (repeatable)', repeated)
    .option(
      '--sitemap <mode>',
      'include (default), skip or only',
      choice('sitemap', ['include', 'skip', 'only']),
    )
    .option('--under-start-path', "follow only the start URL's path and those below it")
    .option('--subdomains', 'follow other hosts of the same domain')
    .option('--ignore-query', 'treat URLs differing only in their query as one page')
    .option('--delay <ms>', 'least time between two requests to the host', int('delay'))
    .option('--ignore-robots', 'crawl what robots.txt disallows')
    .action(
      action(
        async (
          s,
          g,
          url: string,
          o: ContentOptions & {
            limit?: number;
            depth?: number;
            includePaths?: string[];
            excludePaths?: string[];
            sitemap?: string;
            underStartPath?: boolean;
            subdomains?: boolean;
            ignoreQuery?: boolean;
            delay?: number;
            ignoreRobots?: boolean;
          },
        ) => {
          const created = await s.call<{ id: string }>('POST', '/api/v1/crawl', {
            url,
            ...contentBody(o),
            ...(o.limit !== undefined ? { limit: o.limit } : {}),
            ...(o.depth !== undefined ? { maxDepth: o.depth } : {}),
            ...(o.includePaths ? { includePaths: o.includePaths } : {}),
            ...(o.excludePaths ? { excludePaths: o.excludePaths } : {}),
            ...(o.sitemap ? { sitemap: o.sitemap } : {}),
            ...(o.underStartPath ? { stayUnderStartPath: true } : {}),
            ...(o.subdomains ? { includeSubdomains: true } : {}),
            ...(o.ignoreQuery ? { ignoreQueryParameters: true } : {}),
            ...(o.delay !== undefined ? { delayMs: o.delay } : {}),
            ...(o.ignoreRobots ? { ignoreRobotsTxt: true } : {}),
          });
          const job = await waitForJob(s, created.id);
          const pages = job.data as Array<{ success: boolean } & Body>;
          if (g.json) printJson(job);
          else print(pagesText(pages as never));
          note(job as unknown as Body);
          // A broken link somewhere is what crawls find, not a failed crawl: only the start page counts.
          const failed = pages.filter((p) => !p?.success).length;
          if (failed) process.stderr.write(`${failed} of ${pages.length} pages failed\n`);
          if (job.status !== 'completed' || !pages[0]?.success) process.exitCode = EXIT.failed;
        },
      ),
    );

  program
    .command('map')
    .description("list a site's URLs")
    .argument('<url>')
    .option('-l, --limit <n>', 'at most this many (1-5000)', int('limit'))
    .option('-s, --search <keyword>', 'rank by a keyword')
    .option('--subdomains', 'include subdomains')
    .action(
      action(
        async (s, g, url: string, o: { limit?: number; search?: string; subdomains?: boolean }) => {
          const res = await s.call('POST', '/api/v1/map', {
            url,
            ...(o.limit ? { limit: o.limit } : {}),
            ...(o.search ? { search: o.search } : {}),
            ...(o.subdomains ? { includeSubdomains: true } : {}),
          });
          if (g.json) printJson(res);
          else if (res.success) print((res.links as string[]).join('\n'));
          else print(`failed: ${String(res.error)}`);
          note(res);
          if (!res.success) process.exitCode = EXIT.failed;
        },
      ),
    );

  program
    .command('search')
    .description('search the web (1-3 queries)')
    .argument('<queries...>')
    .option('-l, --limit <n>', 'results per query (1-50)', int('limit'))
    .option('-e, --engine <name>', 'google, bing, chatgpt, perplexity, searxng, brave')
    .option('--location <country>', 'ISO country code')
    .option('--scrape', 'also fetch every result page as markdown')
    .option(
      '--method <method>',
      'with --scrape, the engine for every page (auto, http, browser, browser-stealth, browser-firefox)',
      choice('method', METHODS),
    )
    .option(
      '--max-age <ms>',
      'with --scrape: serve cached pages at most this many milliseconds old',
      int('max-age'),
    )
    .action(
      action(
        async (
          s,
          g,
          queries: string[],
          o: {
            limit?: number;
            engine?: string;
            location?: string;
            scrape?: boolean;
            method?: string;
            maxAge?: number;
          },
        ) => {
          const res = await s.call<
            {
              results: Array<{
                query: string;
                success: boolean;
                error?: string;
                results: Array<{ url: string; title: string; description: string; page?: never }>;
              }>;
            } & Body
          >('POST', '/api/v1/search', {
            queries,
            ...(o.limit ? { limit: o.limit } : {}),
            ...(o.engine ? { engine: o.engine } : {}),
            ...(o.location ? { location: o.location } : {}),
            ...(o.scrape
              ? {
                  scrape: {
                    ...(o.method ? { method: o.method } : {}),
                    ...(o.maxAge !== undefined ? { maxAge: o.maxAge } : {}),
                  },
                }
              : {}),
          });
          if (g.json) printJson(res);
          else {
            const blocks = res.results.map((q) => {
              if (!q.success) return `## ${q.query}\n\nfailed: ${q.error}`;
              const hits = q.results.map(
                (h, i) =>
                  `${i + 1}. ${h.title}\n   ${h.url}\n   ${h.description}${h.page ? `\n\n${pageText(h.page)}\n` : ''}`,
              );
              return `## ${q.query}\n\n${hits.join('\n')}`;
            });
            print(blocks.join('\n\n'));
          }
          note(res);
          if (res.results.some((q) => !q.success)) process.exitCode = EXIT.failed;
        },
      ),
    );

  addCaptureCommands(program);
  addManageCommands(program);
  addMonitorCommands(program);
}
