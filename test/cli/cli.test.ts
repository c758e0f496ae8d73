import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { startCrawlSite, TREE_SITE } from '../fixtures/crawl-site.ts';
import { startSearxngServer } from '../fixtures/searxng-server.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { freePort, TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE = join(ROOT, 'node_modules/.bin/node');

const scratch = useFixture(() => tempDir('webdata-cli-'));
const site = useFixture(() => startFixtureSite());
const searx = useFixture(() => startSearxngServer([`${site.origin}/article.html`]));
const web = useFixture(() => startCrawlSite({ generated: [TREE_SITE] }));
const t = useServer({
  settings: () => ({
    SEARXNG_URL: searx.origin,
    WEBDATA_BROWSER_POOL_SIZE: '1',
    WEBDATA_TEST_RESOLVE: 'tree.test=127.0.0.1',
  }),
});

/** Runs `webdata ...` as a process against the test server; stdin and stderr are not a terminal. */
function webdata(
  args: string[],
  env: Record<string, string> = { WEBDATA_URL: t.base, WEBDATA_API_KEY: TEST_KEY },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      NODE,
      [join(ROOT, 'src/cli/main.ts'), ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The parsed answer `webdata --json <args>` prints. */
async function webdataJson(args: string[]): Promise<any> {
  return JSON.parse((await webdata(['--json', ...args])).stdout);
}

// Each command is a fresh Node process; on a loaded machine that is seconds, not milliseconds.
describe('webdata CLI against a running server', { timeout: 120_000 }, () => {
  it('scrape prints markdown, cost on stderr; --json prints the API result', async () => {
    const human = await webdata(['scrape', `${site.origin}/article.html`]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Twice a day the ocean pulls back');
    expect(human.stdout).not.toContain('cost');
    expect(human.stderr).toBe('cost: $0.002\n');
    const page = await webdataJson([
      'scrape',
      `${site.origin}/article.html`,
      '-f',
      'markdown,links',
      '--exclude',
      'table',
    ]);
    expect(page).toMatchObject({ success: true, cost: 0.002 });
    expect(page.links).toContain(`${site.origin}/kelp`);
    expect(page.markdown).not.toMatch(/\| Zone\s*\|/);
  });

  it('scrape --max-age serves the cached result; --no-store-in-cache keeps none', async () => {
    const url = `${site.origin}/article.html?cli=cache`;
    const first = await webdataJson(['scrape', url, '--max-age', '60000']);
    expect(first.cacheState).toBe('miss');
    const second = await webdataJson(['scrape', url, '--max-age', '60000']);
    expect(second.cacheState).toBe('hit');
    const other = `${site.origin}/article.html?cli=nostore`;
    await webdata(['scrape', other, '--no-store-in-cache']);
    const after = await webdataJson(['scrape', other, '--max-age', '60000']);
    expect(after.cacheState).toBe('miss');
    const bad = await webdata(['scrape', url, '--max-age', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('max-age');
  });

  it('scrape -o writes the content to a file', async () => {
    const file = join(scratch.path, 'page.md');
    const res = await webdata(['scrape', `${site.origin}/article.html`, '-o', file]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(await readFile(file, 'utf8')).toContain('Twice a day the ocean pulls back');
  });

  it('scrape --method picks the engine; an unknown one is a usage error', async () => {
    const res = await webdataJson(['scrape', `${site.origin}/article.html`, '--method', 'browser']);
    expect(res).toMatchObject({ success: true, method: 'browser' });
    const bad = await webdata(['scrape', `${site.origin}/article.html`, '--method', 'fast']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('method');
  });

  it('exit codes say what failed: the page (1), the request (2), the key (3), the job (4), the server (6)', async () => {
    const page = await webdata(['scrape', `${site.origin}/status/404`]);
    expect(page.code).toBe(1);
    expect(page.stdout).toContain('failed (HTTP 404)');
    const bad = await webdata(['scrape', 'not-a-url']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('url:');
    const usage = await webdata(['map', `${site.origin}/`, '--limit', 'many']);
    expect(usage.code).toBe(2);
    const key = await webdata(['scrape', `${site.origin}/article.html`], {
      WEBDATA_URL: t.base,
      WEBDATA_API_KEY: 'wd_wrong_0000000000000000000',
    });
    expect(key.code).toBe(3);
    expect(key.stderr).toContain('invalid or revoked API key');
    const missing = await webdata(['jobs', 'get', 'no-such-job']);
    expect(missing.code).toBe(4);
    const closed = `http://127.0.0.1:${await freePort()}`;
    const down = await webdata(['scrape', `${site.origin}/article.html`], {
      WEBDATA_URL: closed,
      WEBDATA_API_KEY: TEST_KEY,
    });
    expect(down.code).toBe(6);
    expect(down.stderr).toContain(`cannot reach ${closed}`);
  });

  it('batch runs a job, prints each page, and exits 1 when an item failed', async () => {
    const list = join(scratch.path, 'urls.txt');
    await writeFile(list, `${site.origin}/article.html\n# a comment\n${site.origin}/status/500\n`);
    const res = await webdata(['batch', '-i', list]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(`## ${site.origin}/article.html`);
    expect(res.stdout).toContain('Twice a day');
    expect(res.stdout).toContain(`## ${site.origin}/status/500\n\nfailed (HTTP 500)`);
    // Not a terminal: no progress bar codes on stderr.
    expect(res.stderr).not.toContain('\u001b[');
    const ok = await webdata(['--json', 'batch', `${site.origin}/article.html`]);
    expect(ok.code).toBe(0);
    const job = JSON.parse(ok.stdout);
    expect(job).toMatchObject({ status: 'completed', total: 1, completed: 1 });

    const jobs = await webdata(['jobs', 'list']);
    expect(jobs.stdout).toContain(`${job.id}  scrape-batch  completed  1/1`);
    const get = await webdata(['jobs', 'get', job.id]);
    expect(get.stdout).toContain(`job ${job.id}: scrape-batch completed (1/1)`);
    const theirs = await webdata(['jobs', 'get', job.id], {
      WEBDATA_URL: t.base,
      WEBDATA_API_KEY: TEST_KEY_2,
    });
    expect(theirs.code).toBe(4);
  });

  it('crawl runs a crawl job with the path, depth and limit options, and prints each page', async () => {
    const res = await webdata([
      'crawl',
      web.url('tree.test', '/'),
      '--depth',
      '1',
      '--limit',
      '10',
      '--exclude-paths',
      '^/p/2$',
      '--sitemap',
      'skip',
    ]);
    expect(res.code).toBe(0);
    const urls = ['/', '/p/1', '/p/3'].map((p) => web.url('tree.test', p));
    expect(res.stdout.match(/^## .+$/gm)?.sort()).toEqual(urls.map((u) => `## ${u}`).sort());
    expect(res.stdout).toContain('# Page 3\n\nfox jumps over the lazy dog');
    expect(res.stderr).toBe('cost: $0.006\n');

    const json = await webdata([
      '--json',
      'crawl',
      web.url('tree.test', '/p/1'),
      '--include-paths',
      '^/p/[4-6]$',
      '--include-paths',
      '^/p/1[3-5]$',
      '-l',
      '4',
      '-f',
      'links',
    ]);
    const under = await webdataJson(['crawl', web.url('tree.test', '/p/1'), '--under-start-path']);
    expect(under.data.map((p: { url: string }) => p.url)).toEqual([web.url('tree.test', '/p/1')]);
    expect(json.code).toBe(0);
    const job = JSON.parse(json.stdout);
    expect(job).toMatchObject({ type: 'crawl', status: 'completed', total: 4, completed: 4 });
    expect(job.data[0]).toMatchObject({
      url: web.url('tree.test', '/p/1'),
      depth: 0,
      success: true,
    });
    expect(job.data[0].markdown).toBeUndefined();
    expect(job.data[0].links).toContain(web.url('tree.test', '/p/4'));
    for (const page of job.data.slice(1))
      expect(new URL(page.url).pathname).toMatch(/^\/p\/([4-6]|1[3-5])$/);

    const listed = await webdata(['jobs', 'list', '--type', 'crawl']);
    expect(listed.stdout).toContain(`${job.id}  crawl  completed  4/4`);
  });

  it('crawl exits 1 when the start page fails, 2 naming a bad option', async () => {
    const gone = await webdata(['crawl', web.url('tree.test', '/p/999')]);
    expect(gone.code).toBe(1);
    expect(gone.stdout).toContain('failed (HTTP 404)');
    expect(gone.stderr).toContain('1 of 1 pages failed');
    const pattern = await webdata(['crawl', web.url('tree.test', '/'), '--include-paths', '(?=x)']);
    expect(pattern.code).toBe(2);
    expect(pattern.stderr).toContain('includePaths[0]:');
    const mode = await webdata(['crawl', web.url('tree.test', '/'), '--sitemap', 'never']);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain('sitemap must be one of include, skip, only');
  });

  it('map and search print one result per line', async () => {
    const map = await webdata(['map', `${site.origin}/article.html`, '--limit', '20']);
    expect(map.code).toBe(0);
    expect(map.stdout.trim().split('\n')).toContain(`${site.origin}/kelp`);
    const search = await webdata(['search', 'tide pools', '--engine', 'searxng', '--scrape']);
    expect(search.code).toBe(0);
    expect(search.stdout).toContain(`1. Result 0\n   ${site.origin}/article.html`);
    expect(search.stdout).toContain('Twice a day the ocean pulls back');
  });

  it('screenshot and pdf -o save the files', async () => {
    const png = join(scratch.path, 'shot.png');
    const shot = await webdata([
      'screenshot',
      `${site.origin}/browser/tall`,
      '--viewport',
      '--width',
      '640',
      '--height',
      '480',
      '-o',
      png,
    ]);
    expect(shot.code).toBe(0);
    expect(shot.stdout.trim()).toBe(`${png} (640x480)`);
    const img = PNG.sync.read(await readFile(png));
    expect([img.width, img.height]).toEqual([640, 480]);
    const pdf = join(scratch.path, 'doc.pdf');
    const html = join(scratch.path, 'doc.html');
    await writeFile(html, '<h1>Tide table</h1>');
    const printed = await webdata(['pdf', '--html-file', html, '-o', pdf]);
    expect(printed.code).toBe(0);
    expect((await readFile(pdf)).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('session create, get and close', async () => {
    const created = await webdataJson(['session', 'create', '--width', '800', '--height', '600']);
    expect(created.sessionId).toBeTruthy();
    const got = await webdata(['session', 'get', created.sessionId]);
    expect(got.stdout).toContain(`session ${created.sessionId}: active`);
    const closed = await webdata(['session', 'close', created.sessionId]);
    expect(closed.stdout).toContain(`session ${created.sessionId}: closed (manual)`);
  });

  it('with no server named, runs the service in the process', async () => {
    const dataDir = join(scratch.path, 'embedded');
    const res = await webdata(['scrape', `${site.origin}/article.html`], {
      WEBDATA_DATA_DIR: dataDir,
      WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
      WEBDATA_SESSION_WARM_SPARES: '0',
      WEBDATA_BROWSER_POOL_SIZE: '1',
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Twice a day the ocean pulls back');
    const half = await webdata(['scrape', `${site.origin}/article.html`], {
      WEBDATA_API_KEY: TEST_KEY,
    });
    expect(half.code).toBe(2);
  });
});
