import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { startHostilePages } from '../fixtures/hostile-pages.ts';
import { useFixture } from '../helpers/fixture.ts';
import { timed } from '../helpers/poll.ts';
import { expectResponsive, warmUp } from '../helpers/responsive.ts';
import { useServer } from '../helpers/server.ts';

/** Quadratic or worse in linkedom's selector engine: minutes on 2,000 siblings already. */
const SLOW = 'div:nth-child(2n+1):nth-last-child(2n+1) ~ div ~ div';
const DEADLINE_MS = 8000;

const site = useFixture(startHostilePages);
// Three content workers: the two slow requests below take two of them; the third must stay free.
const t = useServer({
  settings: { WEBDATA_CONTENT_WORKERS: '3', WEBDATA_CONVERT_TIMEOUT_MS: String(DEADLINE_MS) },
});

const fieldOf = (json: { details?: Array<{ field: string }> }) => json.details?.[0]?.field;

describe('CSS selectors from callers run bounded', () => {
  beforeAll(() => warmUp(t, `${site.origin}/small.html`));

  it('ends slow extract.selectors and includeTags at the deadline, page by page, while others are served', async () => {
    const url = `${site.origin}/elements.html`;
    const extract = timed(
      t.api('POST', '/api/v1/scrape/batch', {
        urls: [url, `${site.origin}/small.html`],
        extract: { selectors: { title: 'h1', odd: { selector: SLOW, all: true } } },
      }),
    );
    const narrowed = timed(t.api('POST', '/v2/scrape', { url, includeTags: [SLOW] }));
    // Past the pages' conversions (about a second each): the slow selections now hold two workers.
    await sleep(3000);
    await expectResponsive(t, `${site.origin}/small.html`);

    const batch = await extract;
    expect(batch.ms).toBeLessThan(30_000);
    const [slow, small] = batch.value.json.results;
    expect(slow.success).toBe(false);
    expect(slow.error).toMatch(/extract: reading extract\.selectors took longer than 8000 ms/);
    // The batch went on: the other page was read with the same selectors.
    expect(small.success).toBe(true);
    expect(small.json).toEqual({ title: 'Small page', odd: [] });

    const v2 = await narrowed;
    expect(v2.ms).toBeLessThan(30_000);
    expect(v2.value.json.success).toBe(false);
    expect(v2.value.json.error).toMatch(/includeTags\/excludeTags took longer than 8000 ms/);
  }, 60_000);

  it('refuses selectors over 500 characters on every door, naming the field', async () => {
    const url = `${site.origin}/small.html`;
    const long = `div${' > div'.repeat(100)}`;
    const cases: Array<[string, unknown, string]> = [
      [
        '/api/v1/scrape/single',
        { url, extract: { selectors: { a: long } } },
        'extract.selectors.a',
      ],
      [
        '/api/v1/scrape/single',
        { url, extract: { selectors: { a: { selector: long, all: true } } } },
        // A union's branches both fail; the field is the spec's.
        'extract.selectors.a',
      ],
      ['/api/v1/scrape/single', { url, excludeTags: [long] }, 'excludeTags[0]'],
      ['/v2/scrape', { url, includeTags: [long] }, 'includeTags[0]'],
    ];
    for (const [path, body, field] of cases) {
      const { status, json } = await t.api('POST', path, body);
      expect(status, field).toBe(400);
      expect(fieldOf(json), field).toBe(field);
    }
  });
});
