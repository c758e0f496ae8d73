import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { SCREENSHOT_VIEWPORT } from '../../contract/index.ts';
import { action, int, note } from './command-kit.ts';
import { CliError, EXIT } from './errors.ts';
import { print, printJson, saveArtifact } from './output.ts';

/** `webdata screenshot` and `webdata pdf`: a page captured as a file, saved or its URL printed. */
export function addCaptureCommands(program: Command): void {
  program
    .command('screenshot')
    .description('capture a page as PNG')
    .argument('<url>')
    .option('-o, --output <file>', 'save the PNG here (otherwise its URL is printed)')
    .option('--viewport', 'only the viewport, not the full page')
    .option(
      '--width <px>',
      `viewport width (${SCREENSHOT_VIEWPORT.width.minimum}-${SCREENSHOT_VIEWPORT.width.maximum})`,
      int('width'),
    )
    .option(
      '--height <px>',
      `viewport height (${SCREENSHOT_VIEWPORT.height.minimum}-${SCREENSHOT_VIEWPORT.height.maximum})`,
      int('height'),
    )
    .option('--selector <css>', 'capture one element')
    .option('--wait <ms>', 'extra wait after load', int('wait'))
    .action(
      action(
        async (
          s,
          g,
          url: string,
          o: {
            output?: string;
            viewport?: boolean;
            width?: number;
            height?: number;
            selector?: string;
            wait?: number;
          },
        ) => {
          const res = await s.call('POST', '/api/v1/screenshot', {
            url,
            ...(o.viewport ? { fullPage: false } : {}),
            ...(o.width ? { width: o.width } : {}),
            ...(o.height ? { height: o.height } : {}),
            ...(o.selector ? { selector: o.selector } : {}),
            ...(o.wait ? { waitFor: o.wait } : {}),
          });
          if (res.success && o.output) await saveArtifact(s, res.url as string, o.output);
          if (g.json) printJson(res);
          else if (!res.success) print(`failed: ${String(res.error)}`);
          else
            print(
              o.output
                ? `${o.output} (${String(res.width)}x${String(res.height)})`
                : String(res.url),
            );
          note(res);
          if (!res.success) process.exitCode = EXIT.failed;
        },
      ),
    );

  program
    .command('pdf')
    .description('print a page (or an HTML file) to PDF')
    .argument('[url]')
    .option('--html-file <file>', 'render this HTML file instead of a URL')
    .option('-o, --output <file>', 'save the PDF here (otherwise its URL is printed)')
    .option('--page-size <size>', 'A4, Letter or Legal')
    .option('--landscape', 'landscape orientation')
    .action(
      action(
        async (
          s,
          g,
          url: string | undefined,
          o: { htmlFile?: string; output?: string; pageSize?: string; landscape?: boolean },
        ) => {
          if (!url === !o.htmlFile)
            throw new CliError('give a URL or --html-file, one of them', EXIT.usage);
          const shared = {
            ...(o.pageSize ? { pageSize: o.pageSize } : {}),
            ...(o.landscape ? { landscape: true } : {}),
          };
          const res = o.htmlFile
            ? await s.call('POST', '/api/v1/pdf/html', {
                html: await readFile(o.htmlFile, 'utf8'),
                ...shared,
              })
            : await s.call('POST', '/api/v1/pdf/url', { url, ...shared });
          if (res.success && o.output) await saveArtifact(s, res.url as string, o.output);
          if (g.json) printJson(res);
          else
            print(
              !res.success ? `failed: ${String(res.error)}` : o.output ? o.output : String(res.url),
            );
          note(res);
          if (!res.success) process.exitCode = EXIT.failed;
        },
      ),
    );
}
