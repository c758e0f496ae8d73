import { exec } from 'node:child_process';
import { realpath, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { type Api, apiAt, freePort, startTestServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { allPages, spawnCli, useCliProcesses, waitForJob } from '../jobs/helpers.ts';

/**
 * The last release: the main branch as it stood when the work toward running in production began
 * (issue 47). A database it wrote must open in today's code with nothing lost; when a later
 * release ships, move this to it.
 */
const RELEASE = '498c556';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The release's code, from this repository's history, beside today's packages. */
const release = useFixture(async () => {
  const dir = await tempDir('wd-release-');
  await promisify(exec)(`git -C '${ROOT}' archive ${RELEASE} | tar -x -C '${dir.path}'`);
  await symlink(await realpath(join(ROOT, 'node_modules')), join(dir.path, 'node_modules'));
  return dir;
});
const site = useFixture(() => startFixtureSite());
const running = useCliProcesses();

/** The API as one key's holder sees it. */
const holding =
  (api: Api, key: string): Api =>
  (method, path, body) =>
    api(method, path, body, key);

/** What the release wrote, as its own API answered it. */
interface Written {
  key: string;
  /** The job's own address in the API. */
  jobUrl: string;
  job: any;
  results: any[];
  usage: any;
  session: any;
}

/** The release's CLI makes a key; its server runs a job (results and charges) and saves a session. */
async function writeWithRelease(store: Record<string, string>): Promise<Written> {
  const keys = spawnCli(['keys', 'create', '--name', 'made-by-the-release'], store, {
    cwd: release.path,
  });
  running.push(keys);
  await keys.waitFor(/shown only this once:\n(wd_\S+)/, 120_000);
  const key = /shown only this once:\n(wd_\S+)/.exec(keys.output())![1]!;

  const port = await freePort();
  const serve = spawnCli(
    ['serve'],
    {
      ...store,
      PORT: String(port),
      WEBDATA_ALLOW_PRIVATE_NETWORK: 'true',
      WEBDATA_CONTENT_WORKERS: '0',
      WEBDATA_SESSION_WARM_SPARES: '0',
      // Parallel test files load the machine: no shedding on that (startTestServer does the same).
      WEBDATA_SHED_EVENT_LOOP_DELAY_MS: '0',
    },
    { cwd: release.path },
  );
  running.push(serve);
  await serve.waitFor(/webdata listening/, 120_000);
  const api = holding(apiAt(`http://127.0.0.1:${port}`), key);

  const created = await api('POST', '/api/v1/scrape/async/batch', {
    urls: [`${site.origin}/article.html?release=1`, `${site.origin}/notes.txt?release=1`],
  });
  expect(created.status).toBe(202);
  const job = await waitForJob({ api }, created.json.url, { timeoutMs: 60_000 });
  expect(job).toMatchObject({ status: 'completed', completed: 2 });
  const { data: results } = await allPages({ api }, created.json.url, 10);

  const opened = await api('POST', '/api/v1/browser-sandbox/session', {});
  expect(opened.status).toBe(200);
  const browser = await chromium.connectOverCDP(opened.json.wsUrl);
  const context = browser.contexts()[0]!;
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${site.origin}/session/app`);
  await page.evaluate(() => {
    document.cookie = 'saved=by-the-release; path=/; max-age=3600';
  });
  await browser.close();
  const closed = await api('DELETE', `/api/v1/browser-sandbox/session/${opened.json.sessionId}`);
  expect(closed.json).toMatchObject({ status: 'closed', hasStorageState: true });

  const usage = (await api('GET', '/api/v1/usage')).json;
  expect(usage.operations).toContainEqual(
    expect.objectContaining({ operation: 'scrape', charges: 2 }),
  );
  await serve.kill9();
  return { key, jobUrl: created.json.url, job, results, usage, session: closed.json };
}

/** Today's code on that database finds everything, and works on it. */
async function readWithToday(store: Record<string, string>, written: Written): Promise<void> {
  const t = await startTestServer(store);
  try {
    const api = holding(t.api, written.key);
    expect((await t.server.keys.list()).map((k) => k.name)).toContain('made-by-the-release');
    const job = await api('GET', written.jobUrl);
    expect(job.status).toBe(200);
    expect(job.json).toEqual(written.job);
    expect((await allPages({ api }, written.jobUrl, 10)).data).toEqual(written.results);
    expect((await api('GET', '/api/v1/usage')).json).toEqual(written.usage);
    const session = await api(
      'GET',
      `/api/v1/browser-sandbox/session/${written.session.sessionId}`,
    );
    // A closed session's wsUrl names whichever instance answers; the rest is as the release saved it.
    const withoutWs = ({ wsUrl: _, ...rest }: any) => rest;
    expect(withoutWs(session.json)).toEqual(withoutWs(written.session));

    // The saved session resumes with the release's cookie.
    const resumed = await api(
      'POST',
      `/api/v1/browser-sandbox/session/${written.session.sessionId}/resume`,
    );
    expect(resumed.status).toBe(200);
    const browser = await chromium.connectOverCDP(resumed.json.wsUrl);
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${site.origin}/session/app`);
    expect(await page.evaluate(() => document.cookie)).toContain('saved=by-the-release');
    await browser.close();
    await api('DELETE', `/api/v1/browser-sandbox/session/${written.session.sessionId}`);

    // And new work runs on the upgraded store.
    const created = await api('POST', '/api/v1/scrape/async/batch', {
      urls: [`${site.origin}/article.html?today=1`],
    });
    expect(await waitForJob({ api }, created.json.url, { timeoutMs: 60_000 })).toMatchObject({
      status: 'completed',
      completed: 1,
    });
  } finally {
    await t.close();
  }
}

describe(`a database written by release ${RELEASE}`, () => {
  it('on SQLite: today’s code finds every key, job, result, charge and saved session', {
    timeout: 300_000,
  }, async () => {
    const data = await tempDir('wd-upgrade-');
    try {
      const store = { WEBDATA_DATA_DIR: data.path };
      await readWithToday(store, await writeWithRelease(store));
    } finally {
      await data.close();
    }
  });

  it('on Postgres: today’s code finds every key, job, result, charge and saved session', {
    timeout: 300_000,
  }, async () => {
    const data = await tempDir('wd-upgrade-');
    const database = await createTestDatabase();
    try {
      const store = { WEBDATA_DATA_DIR: data.path, DATABASE_URL: database.url };
      await readWithToday(store, await writeWithRelease(store));
    } finally {
      await database.drop();
      await data.close();
    }
  });
});
