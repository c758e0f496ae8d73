import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { NEST_DEEPLY } from '../fixtures/llm-extraction.ts';
import { startOpenAiResponsesServer } from '../fixtures/openai-responses-server.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { extractModelAt } from '../helpers/llm-extract.ts';
import { timed } from '../helpers/poll.ts';
import { TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';

/**
 * Caller JSON Schemas are programs the server compiles and runs: issue 51 rows 1, 2 and 15. Every
 * door that takes one (native scrape and extract, Firecrawl's json format) refuses what would load,
 * await or explode, with a 400 naming the field, and what still runs long fails alone while
 * everyone else is served.
 */
const SCHEMA_DEADLINE_MS = 1_000;
/** What "answers at once" means while a heavy request runs, on a loaded two-core test machine. */
const PROMPT_MS = 1_000;

const site = useFixture(() => startFixtureSite());
const responses = useFixture(startOpenAiResponsesServer);
const t = useServer({
  settings: () => ({
    ...extractModelAt(responses),
    WEBDATA_EXTRACT_SCHEMA_TIMEOUT_MS: String(SCHEMA_DEADLINE_MS),
  }),
});
const article = () => `${site.origin}/article.html`;

/** Each door a schema comes in by, with the field a refusal names. */
const doors = (schema: unknown) =>
  [
    ['/api/v1/scrape/single', { url: article(), extract: { schema } }, 'extract.schema'],
    ['/api/v1/scrape/async/single', { url: article(), extract: { schema } }, 'extract.schema'],
    ['/api/v1/extract', { urls: [article()], schema }, 'schema'],
    ['/v2/scrape', { url: article(), formats: [{ type: 'json', schema }] }, 'formats[0].schema'],
  ] as const;

const mcp = useFixture(async () => {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TEST_KEY}` } },
    }),
  );
  return client;
});

async function expectRefusedEverywhere(schema: unknown, message: RegExp): Promise<void> {
  for (const [path, body, field] of doors(schema)) {
    const { status, json } = await t.api('POST', path, body);
    expect(status, path).toBe(400);
    expect(json.details[0].field, path).toBe(field);
    expect(json.error, path).toMatch(message);
  }
  // MCP's scrape tool runs the route's own checks in-process.
  const tool = (await mcp.callTool({
    name: 'scrape',
    arguments: { url: article(), extract: { schema } },
  })) as { isError?: boolean; content: Array<{ text?: string }> };
  expect(tool.isError).toBe(true);
  expect(tool.content[0]!.text).toMatch(/^HTTP 400: extract\.schema: /);
  expect(tool.content[0]!.text).toMatch(message);
}

/** `levels` definitions, each referring twice to the one below through `keyword`: 2^levels subschemas from a few kB. */
function branching(levels: number, keyword: 'allOf' | 'anyOf') {
  const definitions: Record<string, unknown> = { l0: { type: 'string', minLength: 3 } };
  for (let i = 1; i <= levels; i++)
    definitions[`l${i}`] = {
      [keyword]: [{ $ref: `#/definitions/l${i - 1}` }, { $ref: `#/definitions/l${i - 1}` }],
    };
  return {
    type: 'object',
    definitions,
    properties: { a: { $ref: `#/definitions/l${levels}` } },
  };
}

/**
 * Runs `heavy` and, while it is under way, times `/health` and the second user's scrape: both
 * must answer within PROMPT_MS. Returns what `heavy` answered and how long it took.
 */
async function othersServedDuring<T>(heavy: () => Promise<T>) {
  const running = timed(heavy());
  await new Promise((r) => setTimeout(r, 100));
  const health = await timed(t.api('GET', '/health', undefined, null));
  const scrape = await timed(
    t.api('POST', '/api/v1/scrape/single', { url: article() }, TEST_KEY_2),
  );
  const { value: out, ms } = await running;
  expect(health.value.status).toBe(200);
  expect(health.ms).toBeLessThan(PROMPT_MS);
  expect(scrape.value.status).toBe(200);
  expect(scrape.ms).toBeLessThan(PROMPT_MS);
  return { out, ms };
}

describe('caller JSON Schemas run bounded', () => {
  it('refuses `$async` with 400 naming the field on every door, and keeps serving (row 1)', async () => {
    await expectRefusedEverywhere(
      { type: 'object', $async: true, required: ['zzz'] },
      /the root uses `\$async`, which is not accepted/,
    );
    await expectRefusedEverywhere(
      { type: 'object', properties: { a: { $async: true, type: 'string' } } },
      /#\/properties\/a uses `\$async`/,
    );
    expect((await t.api('GET', '/health', undefined, null)).json.status).toBe('ok');
    const after = await t.api('POST', '/api/v1/scrape/single', {
      url: article(),
      extract: { schema: { type: 'object', properties: { topic: { type: 'string' } } } },
    });
    expect(after.json).toMatchObject({ success: true, json: { topic: expect.any(String) } });
  });

  it('refuses a remote `$schema` or `$ref` with 400 naming the field, and takes the draft-07 meta-schema (row 15)', async () => {
    await expectRefusedEverywhere(
      { type: 'object', $schema: 'http://169.254.169.254/draft.json' },
      /names `\$schema` "http:\/\/169\.254\.169\.254\/draft\.json": only http:\/\/json-schema\.org\/draft-07\/schema# is accepted/,
    );
    await expectRefusedEverywhere(
      { type: 'object', properties: { a: { $ref: 'http://127.0.0.1:9/a.json' } } },
      /#\/properties\/a has `\$ref` "http:\/\/127\.0\.0\.1:9\/a\.json": only references inside the schema/,
    );
    await expectRefusedEverywhere(
      { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } },
      /names nothing in the schema/,
    );
    // What schema generators write: the standard draft and a root `$id`, twice with the same `$id`.
    for (const field of ['topic', 'title']) {
      const { status, json } = await t.api('POST', '/api/v1/scrape/single', {
        url: article(),
        extract: {
          schema: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            $id: 'https://schemas.example/page.json',
            type: 'object',
            properties: { [field]: { $ref: '#/definitions/text' } },
            definitions: { text: { type: 'string' } },
          },
        },
      });
      expect(status).toBe(200);
      expect(json).toMatchObject({ success: true, json: { [field]: expect.any(String) } });
    }
  });

  it('refuses schemas whose `$ref`s branch into billions of subschemas at once, while others are served (row 2)', async () => {
    for (const keyword of ['allOf', 'anyOf'] as const) {
      const levels = keyword === 'allOf' ? 33 : 23;
      const schema = branching(levels, keyword);
      expect(JSON.stringify(schema).length).toBeLessThan(2_700);
      const { out, ms } = await othersServedDuring(() =>
        t.api('POST', '/api/v1/scrape/single', { url: article(), extract: { schema } }),
      );
      expect(out.status, keyword).toBe(400);
      expect(out.json.details[0].field).toBe('extract.schema');
      expect(out.json.error).toMatch(/expands to more than 10000 subschemas/);
      expect(ms).toBeLessThan(5_000);
      await expectRefusedEverywhere(schema, /expands to more than 10000 subschemas/);
    }
  });

  it('refuses a reference that loops back without going into the value, and takes a recursive type', async () => {
    await expectRefusedEverywhere(
      { type: 'object', allOf: [{ $ref: '#' }] },
      /the root refers back to itself without going into a property or an item/,
    );
    const tree = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        children: { type: 'array', items: { anyOf: [{ $ref: '#' }, { type: 'string' }] } },
      },
    };
    const { status, json } = await t.api('POST', '/api/v1/scrape/single', {
      url: article(),
      extract: { schema: tree },
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({ success: true, json: { name: expect.any(String) } });
  });

  it('ends a check of the answer that would run exponentially, failing that extraction alone (row 2)', async () => {
    // Small and recursive, so it passes every bound at the door; an answer nested deep enough
    // that both branches fail at every level makes ajv walk 2^levels paths.
    const branch = { type: 'object', properties: { c: { $ref: '#/definitions/node' } } };
    const schema = {
      type: 'object',
      properties: { c: { $ref: '#/definitions/node' } },
      definitions: { node: { anyOf: [branch, branch] } },
    };
    const { out, ms } = await othersServedDuring(() =>
      t.api('POST', '/api/v1/scrape/single', {
        url: article(),
        extract: { schema, prompt: NEST_DEEPLY },
      }),
    );
    expect(out.status).toBe(200);
    expect(out.json).toMatchObject({ success: false, statusCode: 200, cost: 0.002 });
    expect(out.json.error).toMatch(
      new RegExp(
        `^extract: checking the answer against the schema (took longer than ${SCHEMA_DEADLINE_MS} ms|needed more than \\d+ MB)`,
      ),
    );
    expect(out.json.markdown).toContain('Twice a day');
    expect(ms).toBeLessThan(SCHEMA_DEADLINE_MS + 4_000);
    // The ended worker was replaced: the next schema compiles and checks as usual.
    const next = await t.api('POST', '/api/v1/scrape/single', {
      url: article(),
      extract: { schema: { type: 'object', properties: { topic: { type: 'string' } } } },
    });
    expect(next.json).toMatchObject({ success: true, json: { topic: expect.any(String) } });
  });
});
