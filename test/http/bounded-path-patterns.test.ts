import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { startHostilePages } from '../fixtures/hostile-pages.ts';
import { useFixture } from '../helpers/fixture.ts';
import { expectResponsive, warmUp } from '../helpers/responsive.ts';
import { useServer } from '../helpers/server.ts';
import { waitForJob } from '../jobs/helpers.ts';

const site = useFixture(startHostilePages);
const t = useServer();

const fieldOf = (json: { details?: Array<{ field: string }> }) => json.details?.[0]?.field;
/** 461 characters that compile to about 76,000 RE2 instructions: over a minute per 2 kB path. */
const HUGE = `${'[a-z]{0,999}'.repeat(38)}[0-9]`;
/** Within the cap (983 instructions), and still about 130 ms against a 2,000-character path. */
const NEAR_CAP = '[a-z]{0,490}[0-9]';

describe('crawl path patterns run bounded', () => {
  beforeAll(() => warmUp(t, `${site.origin}/small.html`));

  it('refuses a pattern that compiles too large on /v1 and /v2, naming it, and others are served meanwhile', async () => {
    const heavy = t.api('POST', '/api/v1/crawl', {
      url: `${site.origin}/near-limit-paths.html`,
      includePaths: ['^/docs/', HUGE],
      sitemap: 'skip',
    });
    await sleep(1000);
    await expectResponsive(t, `${site.origin}/small.html`);
    const { status, json } = await heavy;
    expect(status).toBe(400);
    expect(fieldOf(json)).toBe('includePaths[1]');
    // Refused for its compiled size, or, on a loaded machine, for the time compiling it took.
    expect(json.error).toMatch(/RE2 instructions|to compile/);
    const v2 = await t.api('POST', '/v2/crawl', {
      url: `${site.origin}/near-limit-paths.html`,
      excludePaths: [HUGE],
    });
    expect(v2.status).toBe(400);
    expect(fieldOf(v2.json)).toBe('excludePaths[0]');
  }, 120_000);

  it('matches links off the event loop under a deadline: past it the page says its links were not followed', async () => {
    const created = await t.api('POST', '/api/v1/crawl', {
      url: `${site.origin}/near-limit-paths.html`,
      includePaths: [NEAR_CAP],
      sitemap: 'skip',
    });
    expect(created.status).toBe(202);
    await sleep(1500);
    await expectResponsive(t, `${site.origin}/small.html`);
    const job = await waitForJob(t, created.json.url, { timeoutMs: 60_000 });
    expect(job.status).toBe('completed');
    expect(job.total).toBe(1);
    expect(job.data[0].warning).toMatch(
      /its links were not followed: matching links to includePaths\/excludePaths took longer than 2000 ms/,
    );
  }, 120_000);

  it('leaves URLs over 2,048 characters out of scope, unmatched, and follows the rest', async () => {
    const created = await t.api('POST', '/v2/crawl', {
      url: `${site.origin}/long-paths.html`,
      includePaths: ['^/docs/'],
      crawlEntireDomain: true,
      sitemap: 'skip',
    });
    expect(created.status).toBe(200);
    const job = await waitForJob(t, `/v2/crawl/${created.json.id}`, { timeoutMs: 60_000 });
    expect(job.status).toBe('completed');
    const urls = job.data.map((d: { metadata: { sourceURL: string } }) => d.metadata.sourceURL);
    expect(urls.sort()).toEqual([`${site.origin}/docs/short`, `${site.origin}/long-paths.html`]);
  }, 120_000);
});
