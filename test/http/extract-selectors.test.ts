import { describe, expect, it } from 'vitest';
import { startOpenAiResponsesServer } from '../fixtures/openai-responses-server.ts';
import { promptBreakerPage } from '../fixtures/prompt-breaker.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { expectNoBrowsersLeft } from '../helpers/browsers.ts';
import { useFixture } from '../helpers/fixture.ts';
import { llm, SCHEMA } from '../helpers/llm-extract.ts';
import { TEST_KEY, type TestServer, useServer } from '../helpers/server.ts';

expectNoBrowsersLeft();
const site = useFixture(() => startFixtureSite({ '/tricky-page': promptBreakerPage }));
const responses = useFixture(startOpenAiResponsesServer);
const t = useServer({ settings: llm(responses) });
const noLlm = useServer({ settings: { WEBDATA_BROWSER_POOL_SIZE: '1' } });

const article = () => `${site.origin}/article.html`;

describe('extract with selectors (no LLM)', () => {
  it('reads text, attributes and lists, gives null for a missing field, and costs only the fetch', async () => {
    const user = (await noLlm.server.keys.authenticate(TEST_KEY))!;
    const before = (await noLlm.server.ledger.forUser(user.userId)).length;
    const { status, json } = await noLlm.api('POST', '/api/v1/scrape/single', {
      url: article(),
      extract: {
        selectors: {
          title: 'article h1',
          author: '.byline',
          zones: { selector: 'article ul li', all: true },
          image: { selector: 'figure img', attribute: 'src' },
          related: { selector: 'aside a', attribute: 'href', all: true },
          price: '.price',
          missingList: { selector: '.price', all: true },
          imageTitle: { selector: 'figure img', attribute: 'title' },
        },
      },
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({ success: true, cost: 0.002 });
    expect(json.json).toEqual({
      title: 'How Tide Pools Keep Their Secrets',
      author: 'By Marina Okafor',
      zones: [
        'The splash zone, reached only by spray and storm waves',
        'The high intertidal, dry for most of the day',
        'The middle intertidal, covered and uncovered by every tide',
        'The low intertidal, exposed only during the lowest spring tides',
      ],
      image: `${site.origin}/images/pool.jpg`,
      related: [`${site.origin}/kelp`, `${site.origin}/gulls`],
      price: null,
      missingList: [],
      imageTitle: null,
    });
    const rows = (await noLlm.server.ledger.forUser(user.userId)).slice(before);
    expect(rows.map((r) => r.operation)).toEqual(['scrape']);
  });

  it('never runs a selector spec as code', async () => {
    const { json } = await noLlm.api('POST', '/api/v1/scrape/single', {
      url: article(),
      extract: {
        selectors: {
          x: { selector: 'h1', attribute: 'constructor.constructor("return process")().exit()' },
        },
      },
    });
    expect(json).toMatchObject({ success: true, json: { x: null } });
  });

  it('fails a page that is not HTML, naming why', async () => {
    const { json } = await noLlm.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/notes.txt`,
      extract: { selectors: { a: 'p' } },
    });
    expect(json).toMatchObject({
      success: false,
      error: 'extract: selectors need an HTML page, and this page is not HTML',
    });
  });

  it('refuses invalid extract requests with 400 naming the field', async () => {
    const huge = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 600 }, (_, i) => [
          `field_${i}`,
          { type: 'string', description: 'x'.repeat(20) },
        ]),
      ),
    };
    const cases: Array<[TestServer, string, unknown, string, RegExp]> = [
      [
        noLlm,
        '/api/v1/scrape/single',
        { url: article(), extract: { selectors: { title: 'h1[' } } },
        'extract.selectors.title',
        /is not a valid CSS selector/,
      ],
      [
        noLlm,
        '/api/v1/scrape/single',
        { url: article(), extract: {} },
        'extract',
        /either `schema`/,
      ],
      [
        noLlm,
        '/api/v1/scrape/single',
        { url: article(), extract: { schema: SCHEMA } },
        'extract.schema',
        /needs an LLM/,
      ],
      [
        t,
        '/api/v1/scrape/single',
        { url: article(), extract: { schema: SCHEMA, selectors: { a: 'h1' } } },
        'extract',
        /not both/,
      ],
      [
        t,
        '/api/v1/scrape/single',
        {
          url: article(),
          extract: { schema: { type: 'object', properties: { a: { type: 'strin' } } } },
        },
        'extract.schema',
        /not a valid JSON Schema/,
      ],
      [
        t,
        '/api/v1/scrape/single',
        { url: article(), extract: { schema: huge } },
        'extract.schema',
        /at most 16384 bytes/,
      ],
      [
        t,
        '/api/v1/scrape/single',
        {
          url: article(),
          extract: {
            schema: { type: 'object', properties: { a: { type: 'string', pattern: '(?=a)' } } },
          },
        },
        'extract.schema',
        /cannot be used/,
      ],
      [
        t,
        '/api/v1/scrape/batch',
        { urls: [article(), { url: article(), extract: { schema: { type: 'string' } } }] },
        'urls[1].extract.schema',
        /must describe an object/,
      ],
      [
        t,
        '/api/v1/scrape/sequence',
        { startUrl: article(), steps: [{ type: 'scrape' }], extract: { schema: 5 } },
        'extract.schema',
        /JSON Schema object/,
      ],
      [
        t,
        '/api/v1/scrape/async/single',
        { url: article(), extract: { selectors: { a: '' } } },
        'extract.selectors.a',
        /./,
      ],
    ];
    for (const [server, path, body, field, message] of cases) {
      const { status, json } = await server.api('POST', path, body);
      expect(status, `${path} ${field}`).toBe(400);
      expect(json.details[0].field, path).toBe(field);
      expect(json.error).toMatch(message);
    }
  });
});
