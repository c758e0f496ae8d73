import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { LONG_PATHS, startHostilePages } from '../fixtures/hostile-pages.ts';
import { useFixture } from '../helpers/fixture.ts';
import { expectResponsive, warmUp } from '../helpers/responsive.ts';
import { useServer } from '../helpers/server.ts';

const site = useFixture(startHostilePages);
const t = useServer();

const fieldOf = (json: { details?: Array<{ field: string }> }) => json.details?.[0]?.field;

describe('search strings and the words they are split into stay bounded', () => {
  beforeAll(() => warmUp(t, `${site.origin}/small.html`));

  it('refuses a 200,000-character map search on /v2 as /v1 does, and others are served meanwhile', async () => {
    // A run of capitals was quadratic for the word splitter: minutes of a frozen server.
    const search = 'A'.repeat(200_000);
    const heavy = t.api('POST', '/v2/map', { url: `${site.origin}/long-paths.html`, search });
    await sleep(200);
    await expectResponsive(t, `${site.origin}/small.html`);
    const { status, json } = await heavy;
    expect(status).toBe(400);
    expect(fieldOf(json)).toBe('search');
    const native = await t.api('POST', '/api/v1/map', { url: site.origin, search });
    expect(native.status).toBe(400);
    expect(fieldOf(native.json)).toBe('search');
  }, 60_000);

  it('refuses over-long prompts and summary queries on every door, naming the field', async () => {
    const long = 'x'.repeat(10_001);
    const url = `${site.origin}/small.html`;
    const cases: Array<[string, unknown, string]> = [
      ['/api/v1/scrape/single', { url, summary: { query: long } }, 'summary.query'],
      [
        '/v2/scrape',
        { url, formats: ['json'], jsonOptions: { prompt: long } },
        'jsonOptions.prompt',
      ],
      [
        '/v2/scrape',
        { url, formats: [{ type: 'json', schema: { type: 'object' }, prompt: long }] },
        'formats[0].prompt',
      ],
      [
        '/v2/search',
        { query: 'tide pools', includeDomains: ['a'.repeat(2049)] },
        'includeDomains[0]',
      ],
    ];
    for (const [path, body, field] of cases) {
      const { status, json } = await t.api('POST', path, body);
      expect(status, path).toBe(400);
      expect(fieldOf(json), path).toBe(field);
    }
  });

  it('leaves URLs longer than 2,048 characters out of a map instead of splitting them into words', async () => {
    const heavy = t.api('POST', '/api/v1/map', {
      url: `${site.origin}/long-capital-paths.html`,
      search: 'docs aaaa',
    });
    await sleep(300);
    await expectResponsive(t, `${site.origin}/small.html`);
    const { status, json } = await heavy;
    expect(status).toBe(200);
    expect(json.links).toContain(`${site.origin}/docs/short`);
    expect(json.links.every((l: string) => l.length <= 2048)).toBe(true);
    expect(LONG_PATHS.chars).toBeGreaterThan(2048);
  }, 60_000);
});
