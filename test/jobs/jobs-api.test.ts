import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startGoogleSerpServer } from '../fixtures/google-serp-server.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';
import { allPages, expectCompleted, runJob, waitForJob } from './helpers.ts';

const site = useFixture(() => startFixtureSite());
const google = useFixture(startGoogleSerpServer);
// One item at a time, so the cancel test knows exactly which item is running.
const t = useServer({
  settings: () => ({
    WEBDATA_JOB_CONCURRENCY: '1',
    WEBDATA_GOOGLE_URL: google.origin,
    WEBDATA_BROWSER_POOL_SIZE: '1',
  }),
});

const ledgerFor = async (jobId: string, key = TEST_KEY) =>
  (await t.ledger(key)).filter((r) => r.ref === jobId);

describe('async jobs on the embedded engine', () => {
  it('runs a scrape-single job end to end and charges it once, against the job', async () => {
    const created = await t.api('POST', '/api/v1/scrape/async/single', {
      url: `${site.origin}/article.html`,
      extractMetadata: true,
    });
    expect(created.status).toBe(202);
    expect(created.json).toEqual({
      success: true,
      id: expect.any(String),
      url: `/api/v1/scrape/async/job/${created.json.id}`,
    });
    const job = await waitForJob(t, created.json.url);
    expect(job).toMatchObject({
      id: created.json.id,
      type: 'scrape-single',
      status: 'completed',
      total: 1,
      completed: 1,
      cost: 0.002,
    });
    expect(Date.parse(job.expiresAt) - Date.parse(job.createdAt)).toBe(24 * 3600 * 1000);
    expect(job.data).toHaveLength(1);
    expect(job.data[0]).toMatchObject({
      url: `${site.origin}/article.html`,
      success: true,
      statusCode: 200,
      cost: 0.002,
    });
    expect(job.data[0].markdown).toContain('stranded sculpin');
    expect(job.data[0].metadata.title).toContain('Tide Pools');
    expect(job.next).toBeUndefined();
    const rows = await ledgerFor(job.id);
    expect(rows.map((r) => [r.operation, r.costMicros])).toEqual([['scrape', 2000]]);
  });

  it('runs a scrape-batch job keeping input order, isolating failures, and pages through it with next', async () => {
    const urls = [
      `${site.origin}/article.html`,
      `${site.origin}/status/404`,
      { url: `${site.origin}/notes.txt`, type: 'html' },
      `${site.origin}/api/data.json`,
      `${site.origin}/article.html?again=1`,
    ];
    const created = await t.api('POST', '/api/v1/scrape/async/batch', { urls });
    expect(created.status).toBe(202);
    const job = await waitForJob(t, created.json.url);
    expectCompleted(job, 'scrape-batch', 5, 0.008);
    expect(job.data).toHaveLength(5);
    expect(job.next).toBeUndefined();

    const { pages, data } = await allPages(t, created.json.url, 2);
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages[0].next).toBe(`/api/v1/scrape/async/job/${job.id}?offset=2&limit=2`);
    expect(pages[1].next).toBe(`/api/v1/scrape/async/job/${job.id}?offset=4&limit=2`);
    expect(pages[2].next).toBeUndefined();
    expect(data.map((d) => d.url)).toEqual(urls.map((u) => (typeof u === 'string' ? u : u.url)));
    expect(data[1]).toMatchObject({ success: false, statusCode: 404, cost: 0 });
    expect(data[2]).toMatchObject({ success: true, html: 'Plain text notes.\nSecond line.' });
    expect((await ledgerFor(job.id)).length).toBe(4);

    const beyond = await t.api('GET', `${created.json.url}?offset=5`);
    expect(beyond.json.data).toEqual([]);
    expect(beyond.json.next).toBeUndefined();
  });

  it("lists only the caller's jobs, newest first, filtered by type", async () => {
    const other = await t.api(
      'POST',
      '/api/v1/scrape/async/single',
      { url: `${site.origin}/notes.txt` },
      TEST_KEY_2,
    );
    expect(other.status).toBe(202);
    const mine = await t.api('GET', '/api/v1/scrape/async/jobs');
    expect(mine.status).toBe(200);
    expect(mine.json).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(mine.json.jobs.map((j: any) => j.type)).toEqual(['scrape-batch', 'scrape-single']);
    expect(mine.json.jobs.map((j: any) => j.id)).not.toContain(other.json.id);
    expect(Object.keys(mine.json.jobs[0]).sort()).toEqual([
      'completed',
      'createdAt',
      'expiresAt',
      'id',
      'status',
      'total',
      'type',
    ]);

    const filtered = await t.api('GET', '/api/v1/scrape/async/jobs?type=scrape-single');
    expect(filtered.json.total).toBe(1);
    expect(filtered.json.jobs[0].type).toBe('scrape-single');
    const paged = await t.api('GET', '/api/v1/scrape/async/jobs?page=2&limit=1');
    expect(paged.json).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(paged.json.jobs.map((j: any) => j.type)).toEqual(['scrape-single']);

    const theirs = await t.api('GET', '/api/v1/scrape/async/jobs', undefined, TEST_KEY_2);
    expect(theirs.json.jobs.map((j: any) => j.id)).toEqual([other.json.id]);
  });

  it("answers 404 for another user's job, whatever the verb", async () => {
    const created = await t.api('POST', '/api/v1/scrape/async/single', {
      url: `${site.origin}/notes.txt`,
    });
    const get = await t.api('GET', created.json.url, undefined, TEST_KEY_2);
    expect(get.status).toBe(404);
    const del = await t.api('DELETE', created.json.url, undefined, TEST_KEY_2);
    expect(del.status).toBe(404);
    expect((await t.api('GET', '/api/v1/scrape/async/job/no-such-job')).status).toBe(404);
    expect((await waitForJob(t, created.json.url)).status).toBe('completed');
  });

  it('cancels a running job: the running item is abandoned, the rest never run, done items keep their cost', async () => {
    const slow = [1, 2, 3, 4].map((n) => `${site.origin}/slow?ms=3000&n=${n}`);
    const created = await t.api('POST', '/api/v1/scrape/async/batch', {
      urls: [`${site.origin}/article.html?cancel=1`, ...slow],
    });
    const url = created.json.url;
    await waitForJob(t, url, { until: (j) => j.completed === 1 });
    await waitForJob(t, url, { until: () => site.hits.some((h) => h.includes('n=1')) });
    const del = await t.api('DELETE', url);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({
      success: true,
      id: created.json.id,
      status: 'cancelled',
      total: 5,
      completed: 1,
    });
    await new Promise((r) => setTimeout(r, 1500));
    const job = (await t.api('GET', url)).json;
    expect(job).toMatchObject({ status: 'cancelled', completed: 1, cost: 0.002 });
    expect(job.data[0]).toMatchObject({ success: true });
    expect(job.data.slice(1)).toEqual([null, null, null, null]);
    expect(site.hits.filter((h) => /n=[234]/.test(h))).toEqual([]);
    expect((await ledgerFor(created.json.id)).length).toBe(1);

    const again = await t.api('DELETE', url);
    expect(again.status).toBe(409);
    expect(again.json.error).toMatch(/already cancelled/);
  });

  it('refuses to cancel a finished job with 409', async () => {
    const created = await t.api('POST', '/api/v1/scrape/async/single', {
      url: `${site.origin}/notes.txt`,
    });
    await waitForJob(t, created.json.url);
    const del = await t.api('DELETE', created.json.url);
    expect(del.status).toBe(409);
    expect(del.json).toEqual({
      success: false,
      error: 'job is already completed; only pending or processing jobs can be cancelled',
    });
  });

  it('refuses bad input with 400 naming the field', async () => {
    const urls31 = Array.from({ length: 31 }, (_, i) => `${site.origin}/article.html?i=${i}`);
    const batch = await t.api('POST', '/api/v1/scrape/async/batch', { urls: urls31 });
    expect(batch.status).toBe(400);
    expect(batch.json.error).toMatch(/^urls: at most 30 URLs/);
    const queries = Array.from({ length: 21 }, (_, i) => `q${i}`);
    const search = await t.api('POST', '/api/v1/scrape/async/search/batch', { queries });
    expect(search.status).toBe(400);
    expect(search.json.details[0].field).toBe('queries');
    expect((await t.api('POST', '/api/v1/scrape/async/search/batch', { queries: [] })).status).toBe(
      400,
    );
    expect(
      (await t.api('POST', '/api/v1/scrape/async/single', { url: 'ftp://x.example/' })).json
        .details[0].field,
    ).toBe('url');
    expect(
      (
        await t.api('POST', '/api/v1/scrape/async/sequence', {
          startUrl: `${site.origin}/`,
          steps: [],
        })
      ).json.details[0].field,
    ).toBe('steps');

    const created = await t.api('POST', '/api/v1/scrape/async/single', {
      url: `${site.origin}/notes.txt`,
    });
    for (const [query, field] of [
      ['offset=-1', 'offset'],
      ['offset=abc', 'offset'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=2.5', 'limit'],
    ]) {
      const res = await t.api('GET', `${created.json.url}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.details[0].field, query).toBe(field);
    }
    for (const [query, field] of [
      ['page=0', 'page'],
      ['limit=1000', 'limit'],
      ['type=teleport', 'type'],
    ]) {
      const res = await t.api('GET', `/api/v1/scrape/async/jobs?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.details[0].field, query).toBe(field);
    }
  });

  it('runs a search-batch job: one query result per query, in order, failures free', async () => {
    const job = await runJob(t, '/api/v1/scrape/async/search/batch', {
      queries: ['react github', 'captcha wall', 'react github'],
      limit: 5,
    });
    expectCompleted(job, 'search-batch', 3, 0.016);
    expect(job.data.map((q: any) => [q.query, q.success, q.cost])).toEqual([
      ['react github', true, 0.008],
      ['captcha wall', false, 0],
      ['react github', true, 0.008],
    ]);
    expect(job.data[0].results).toHaveLength(5);
    expect(job.data[0].results[0].url).toBe('https://github.com/facebook/react');
    const rows = await ledgerFor(job.id);
    expect(rows.map((r) => [r.operation, r.costMicros])).toEqual([
      ['search', 8000],
      ['search', 8000],
    ]);
    const bad = await t.api('POST', '/api/v1/scrape/async/search/batch', {
      queries: ['x'],
      location: 'zz',
    });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0].field).toBe('location');
  });

  it('runs sequence and sequence-batch jobs in a real browser, one sequence response per item', {
    timeout: 60_000,
  }, async () => {
    const form = {
      startUrl: `${site.origin}/browser/form`,
      steps: [
        { type: 'scrape' },
        { type: 'type', selector: '#q', text: 'sea stars' },
        { type: 'press', key: 'Enter' },
        { type: 'scrape' },
      ],
    };
    const single = await t.api('POST', '/api/v1/scrape/async/sequence', form);
    expect(single.status).toBe(202);
    const batch = await t.api('POST', '/api/v1/scrape/async/sequence/batch', {
      sequences: [
        { startUrl: `${site.origin}/browser/second`, steps: [{ type: 'scrape' }] },
        { ...form, type: 'markdown' },
      ],
      type: 'html',
    });
    expect(batch.status).toBe(202);

    const one = await waitForJob(t, single.json.url, { timeoutMs: 40_000 });
    expectCompleted(one, 'sequence', 1, 0.004);
    expect(one.data[0]).toMatchObject({
      success: true,
      totalBreakpoints: 2,
      completedBreakpoints: 2,
      cost: 0.004,
    });
    expect(one.data[0].data[1].markdown).toContain('Three records of rock pools');

    const two = await waitForJob(t, batch.json.url, { timeoutMs: 40_000 });
    expectCompleted(two, 'sequence-batch', 2, 0.006);
    expect(two.data[0].data[0].html).toContain('Reached by a navigate step.');
    expect(two.data[0].data[0].markdown).toBeUndefined();
    expect(two.data[1].data[1].markdown).toContain('Three records of rock pools');
    const rows = await ledgerFor(two.id);
    expect(rows.every((r) => r.operation === 'sequence')).toBe(true);
    expect(rows.reduce((sum, r) => sum + r.costMicros, 0)).toBe(6000);

    const bad = await t.api('POST', '/api/v1/scrape/async/sequence/batch', {
      sequences: [{ ...form, steps: [{ type: 'navigate', url: 'ftp://x' }] }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0].field).toBe('sequences[0].steps[0].url');
    // Schema extraction needs an LLM, which this server does not have: refused before any job exists.
    const unsupported = await t.api('POST', '/api/v1/scrape/async/sequence', {
      ...form,
      extract: { schema: { type: 'object' } },
    });
    expect(unsupported.status).toBe(400);
    expect(unsupported.json.details[0].field).toBe('extract.schema');
  });
});

describe('job expiry', () => {
  const short = useServer({
    settings: { WEBDATA_JOB_TTL_SECONDS: '2', WEBDATA_JOB_SWEEP_SECONDS: '1' },
  });

  it('answers 404 once a job expired, and the sweep deletes its data', async () => {
    const created = await short.api('POST', '/api/v1/scrape/async/batch', {
      urls: [`${site.origin}/notes.txt`, `${site.origin}/article.html`],
    });
    const job = await waitForJob(short, created.json.url);
    expect(job.status).toBe('completed');
    expect(Date.parse(job.expiresAt) - Date.parse(job.createdAt)).toBe(2000);
    const db = short.server.database.db;
    expect(
      (await db.selectFrom('job_items').selectAll().where('job_id', '=', job.id).execute()).length,
    ).toBe(2);
    await new Promise((r) => setTimeout(r, Date.parse(job.expiresAt) - Date.now() + 1500));
    expect((await short.api('GET', created.json.url)).status).toBe(404);
    expect((await short.api('DELETE', created.json.url)).status).toBe(404);
    expect((await short.api('GET', '/api/v1/scrape/async/jobs')).json.total).toBe(0);
    expect(await db.selectFrom('jobs').selectAll().where('id', '=', job.id).execute()).toEqual([]);
    expect(
      await db.selectFrom('job_items').selectAll().where('job_id', '=', job.id).execute(),
    ).toEqual([]);
    const charged = (
      await short.server.ledger.forUser((await short.server.keys.authenticate(TEST_KEY))!.userId)
    ).filter((r) => r.ref === job.id);
    expect(charged.length).toBe(2);
  });
});

it('refuses WEBDATA_WORKER=false on the embedded store, where nothing else would run the jobs', () => {
  expect(() => loadConfig({ WEBDATA_WORKER: 'false' })).toThrow(
    /WEBDATA_WORKER=false needs DATABASE_URL/,
  );
  expect(
    loadConfig({ WEBDATA_WORKER: 'false', DATABASE_URL: 'postgres://x@127.0.0.1/db' }).runWorker,
  ).toBe(false);
});
