import fc from 'fast-check';
import pLimit from 'p-limit';
import { beforeAll, describe, expect, it } from 'vitest';
import { NEST_DEEPLY } from '../fixtures/llm-extraction.ts';
import { startOpenAiResponsesServer } from '../fixtures/openai-responses-server.ts';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { extractModelAt } from '../helpers/llm-extract.ts';
import { timed } from '../helpers/poll.ts';
import {
  hostileSchemaArbitrary,
  type JsonSchema,
  schemaArbitrary,
} from '../helpers/schema-arbitrary.ts';
import { jsonOrText, TEST_KEY, useServer } from '../helpers/server.ts';

/**
 * Requests derived from the served /openapi.json: for every operation, bodies valid by its schema,
 * bodies with some nodes broken (wrong types, bounds crossed, fields missing or unknown), and bytes
 * that are not the JSON asked for; for every GET, query strings and path ids of any shape. No
 * answer may be a 5xx, and every 400 names a field the way the API promises. Fixed seed and count,
 * so a failure reproduces; WEBDATA_FUZZ_RUNS raises the count for a longer local run.
 */
const SEED = 20261123;
const RUNS_PER_OPERATION = Number(process.env.WEBDATA_FUZZ_RUNS ?? 24);

interface Operation {
  method: string;
  path: string;
  body?: JsonSchema;
  query: string[];
  hasPathId: boolean;
}

interface Attempt {
  op: Operation;
  url: string;
  body?: string;
  contentType?: string;
}

const site = useFixture(() => startFixtureSite());
const t = useServer({
  settings: () => ({
    // Every engine and model endpoint points at the local fixture site: valid bodies never leave the machine.
    WEBDATA_GOOGLE_URL: site.origin,
    WEBDATA_GOOGLE_CSE_URL: `${site.origin}/cse`,
    WEBDATA_BING_URL: site.origin,
    OPENAI_BASE_URL: `${site.origin}/v1`,
    PERPLEXITY_BASE_URL: site.origin,
    BRAVE_BASE_URL: site.origin,
    SEARXNG_URL: site.origin,
    WEBDATA_SESSIONS_MAX: '1',
    WEBDATA_FETCH_TIMEOUT_MS: '3000',
  }),
});
let operations: Operation[];

beforeAll(async () => {
  const doc = (await (await fetch(`${t.base}/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema: JsonSchema }> };
          parameters?: Array<{ in: string; name: string }>;
        }
      >
    >;
  };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      body: op.requestBody?.content['application/json']?.schema,
      query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      hasPathId: path.includes('{id}'),
    })),
  );
}, 60_000);

/** Free-form strings: local URLs the server may fetch, and text that never parses as a URL (so nothing resolves a name off this machine). */
function strings(origin: string): fc.Arbitrary<string> {
  const urls = fc.constantFrom(
    `${origin}/article.html`,
    `${origin}/missing-page`,
    `${origin}/docs/`,
    'http://127.0.0.1:1/',
    'http://[::1]:1/',
    'ftp://127.0.0.1/',
  );
  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom('', ' ', '#', '::', 'a[', '\u0000'),
  );
  return fc.oneof(
    { weight: 2, arbitrary: urls },
    { weight: 3, arbitrary: text.map((s) => (URL.canParse(s) ? `${origin}/article.html` : s)) },
  );
}

function pathFor(op: Operation, id: string): string {
  return op.path.replace('{id}', encodeURIComponent(id));
}

function attempts(op: Operation, origin: string, seed: number): Attempt[] {
  const str = strings(origin);
  const id = fc.oneof(
    fc.uuid(),
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.constant('a'.repeat(500)),
  );
  const query = fc.dictionary(
    fc.oneof(fc.constantFrom(...op.query, 'unknown'), fc.string({ minLength: 1, maxLength: 8 })),
    fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer().map(String),
      fc.constantFrom('', '0', '-1', '2026-02-30', '2026-01-01', '1e3', '9'.repeat(30)),
    ),
    { maxKeys: 3 },
  );
  const urlArb = fc
    .tuple(id, query)
    .map(
      ([i, q]) => `${pathFor(op, i)}${Object.keys(q).length ? `?${new URLSearchParams(q)}` : ''}`,
    );
  if (!op.body)
    return fc.sample(urlArb, { seed, numRuns: RUNS_PER_OPERATION }).map((url) => ({ op, url }));

  const json = (invalidPercent: number) =>
    schemaArbitrary(op.body!, { strings: str, invalidPercent }).map(
      (v) => JSON.stringify(v) ?? 'null',
    );
  const notJson = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom(
      '',
      '{',
      '{"url":',
      'null',
      '[]',
      '"x"',
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{}}}',
    ),
    fc.integer({ min: 1, max: 3000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    fc
      .integer({ min: 1, max: 3000 })
      .map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  );
  const body = fc.oneof(
    { weight: 3, arbitrary: json(0).map((b) => ({ body: b, contentType: 'application/json' })) },
    { weight: 5, arbitrary: json(15).map((b) => ({ body: b, contentType: 'application/json' })) },
    { weight: 2, arbitrary: notJson.map((b) => ({ body: b, contentType: 'application/json' })) },
    { weight: 1, arbitrary: json(0).map((b) => ({ body: b, contentType: 'text/plain' })) },
  );
  return fc
    .sample(fc.tuple(id, body), { seed, numRuns: RUNS_PER_OPERATION })
    .map(([i, b]) => ({ op, url: pathFor(op, i), ...b }));
}

/** What is wrong with an answer, or undefined when it keeps the API's promises. */
function problem(status: number, json: any): string | undefined {
  if (status >= 500) return `HTTP ${status}`;
  if (status !== 400) return undefined;
  if (json?.success !== false || typeof json.error !== 'string')
    return '400 without the error shape';
  const field = json.details?.[0]?.field;
  if (typeof field !== 'string' || field === '') return '400 naming no field';
  if (!json.error.startsWith(`${field}: `))
    return `400 whose error does not start with its field ${field}`;
  return undefined;
}

describe('schema-driven fuzzing', () => {
  it('never answers 5xx, and every 400 names a field', async () => {
    expect(operations.filter((o) => o.body).length).toBeGreaterThanOrEqual(10);
    const all = operations.flatMap((op, i) => attempts(op, site.origin, SEED + i));
    const limit = pLimit(4);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    await Promise.all(
      all.map((a) =>
        limit(async () => {
          const headers: Record<string, string> = { authorization: `Bearer ${TEST_KEY}` };
          if (a.contentType) headers['content-type'] = a.contentType;
          const res = await fetch(`${t.base}${a.url}`, {
            method: a.op.method,
            headers,
            body: a.body,
            signal: AbortSignal.timeout(120_000),
          });
          const text = await res.text();
          const json = jsonOrText(text);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const wrong = problem(res.status, json);
          if (wrong)
            failures.push(
              `${wrong}: ${a.op.method} ${a.url} ${a.body?.slice(0, 300) ?? ''} -> ${text.slice(0, 300)}`,
            );
        }),
      ),
    );
    expect(failures).toEqual([]);
    // The run reached the operations, not just the validator: some requests were accepted.
    expect((statuses.get(200) ?? 0) + (statuses.get(202) ?? 0)).toBeGreaterThan(all.length / 10);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(all.length / 4);
  }, 600_000);
});

describe('caller JSON Schemas, deep and branching', () => {
  /** Each request's bound: a fetch, two model rounds and two schema checks of 1 s, on a loaded machine. */
  const BOUND_MS = 15_000;
  const RUNS = Number(process.env.WEBDATA_FUZZ_RUNS ?? 24) * 2;
  const llm = useFixture(startOpenAiResponsesServer);
  const s = useServer({
    settings: () => ({
      ...extractModelAt(llm),
      WEBDATA_EXTRACT_SCHEMA_TIMEOUT_MS: '1000',
    }),
  });
  /** Every door a schema comes in by; a deeply nested answer now and then, for the checks after. */
  const bodies = (url: string) =>
    fc.tuple(hostileSchemaArbitrary(), fc.nat(2), fc.boolean()).map(([schema, door, deep]) => {
      const prompt = deep ? NEST_DEEPLY : 'What is this page about?';
      return door === 0
        ? { path: '/api/v1/scrape/single', body: { url, extract: { schema, prompt } } }
        : door === 1
          ? { path: '/v2/scrape', body: { url, formats: [{ type: 'json', schema, prompt }] } }
          : { path: '/api/v1/extract', body: { urls: [url], schema, prompt } };
    });

  it('answers every schema 2xx or 4xx within the bound, and /health answers meanwhile', async () => {
    const all = fc.sample(bodies(`${site.origin}/article.html`), { seed: SEED, numRuns: RUNS });
    let polling = true;
    let slowestHealth = 0;
    const poller = (async () => {
      while (polling) {
        const { value, ms } = await timed(fetch(`${s.base}/health`));
        expect(value.status).toBe(200);
        slowestHealth = Math.max(slowestHealth, ms);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const limit = pLimit(2);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    await Promise.all(
      all.map((a) =>
        limit(async () => {
          const { value: res, ms } = await timed(
            fetch(`${s.base}${a.path}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
              body: JSON.stringify(a.body),
              signal: AbortSignal.timeout(BOUND_MS * 2),
            }),
          );
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const wrong =
            problem(res.status, jsonOrText(text)) ??
            (ms > BOUND_MS ? `${Math.round(ms)} ms` : undefined);
          if (wrong)
            failures.push(
              `${wrong}: POST ${a.path} ${JSON.stringify(a.body).slice(0, 300)} -> ${text.slice(0, 300)}`,
            );
        }),
      ),
    );
    polling = false;
    await poller;
    expect(failures).toEqual([]);
    expect(slowestHealth).toBeLessThan(1_000);
    // Both kinds were reached: schemas refused at the door, and schemas that ran.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(all.length / 5);
    expect((statuses.get(200) ?? 0) + (statuses.get(202) ?? 0)).toBeGreaterThan(all.length / 10);
  }, 600_000);
});

/** Regular expressions shaped to cost: large counted repeats, nesting, alternation, and ones RE2 refuses. */
const hostileRegex: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 40 }))
    .map(([n, k]) => `${`[a-z]{0,${n}}`.repeat(k)}[0-9]`),
  fc.integer({ min: 1, max: 30 }).map((k) => `${'(?:a|aa)*'.repeat(k)}b`),
  fc.integer({ min: 1, max: 9 }).map((k) => `${'(?:.{0,99}'.repeat(k)}x${')'.repeat(k)}`),
  fc.constantFrom('(a+)+$', '(?=a)b', '(a)\\1', '((((', 'a{1001}', `${'a'.repeat(600)}`),
);

/** CSS selectors shaped to cost: sibling and nth chains, deep :not nesting, long descendant runs, and broken ones. */
const hostileSelector: fc.Arbitrary<string> = fc.oneof(
  fc.constant('div:nth-child(2n+1):nth-last-child(2n+1) ~ div ~ div'),
  fc.integer({ min: 1, max: 60 }).map((k) => `${':not('.repeat(k)}p${')'.repeat(k)}`),
  fc.integer({ min: 1, max: 120 }).map((k) => Array(k).fill('*').join(' ')),
  fc.integer({ min: 1, max: 80 }).map((k) => `div${' ~ div'.repeat(k)}`),
  fc.constantFrom('[[', 'p:has(', `p${'.x'.repeat(300)}`),
);

/** Strings large enough to stall anything quadratic: runs of capitals, slashes, mixed case. */
const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('A', 'aA', '/', 'Ab1', ' '), fc.constantFrom(1_000, 100_000, 200_000))
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n));

/** Most one hostile request may take: any longer and it held the server or a worker it must not. */
const HOSTILE_BOUND_MS = 15_000;

describe('hostile shapes', () => {
  it('answers pathological regexes, selectors and huge strings within a bound, never 5xx, every 400 naming its field', async () => {
    const page = `${site.origin}/article.html`;
    const shapes = fc.oneof(
      hostileRegex.map(
        (p) =>
          ['/api/v1/crawl', { url: page, limit: 1, sitemap: 'skip', includePaths: [p] }] as const,
      ),
      hostileRegex.map(
        (p) => ['/v2/crawl', { url: page, limit: 1, sitemap: 'skip', excludePaths: [p] }] as const,
      ),
      hostileSelector.map(
        (s) => ['/api/v1/scrape/single', { url: page, includeTags: [s] }] as const,
      ),
      hostileSelector.map(
        (s) =>
          [
            '/api/v1/scrape/single',
            { url: page, extract: { selectors: { f: { selector: s, all: true } } } },
          ] as const,
      ),
      hostileSelector.map((s) => ['/v2/scrape', { url: page, excludeTags: [s] }] as const),
      hugeString.map((s) => ['/api/v1/map', { url: page, limit: 5, search: s }] as const),
      hugeString.map((s) => ['/v2/map', { url: page, limit: 5, search: s }] as const),
      hugeString.map((s) => ['/v2/search', { query: s, limit: 1 }] as const),
      hugeString.map(
        (s) => ['/api/v1/scrape/single', { url: page, summary: { query: s } }] as const,
      ),
    );
    const failures: string[] = [];
    for (const [path, body] of fc.sample(shapes, { seed: SEED, numRuns: 40 })) {
      const started = performance.now();
      const res = await fetch(`${t.base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(120_000),
      });
      const text = await res.text();
      const ms = performance.now() - started;
      const shown = `POST ${path} ${JSON.stringify(body).slice(0, 200)}`;
      const wrong = problem(res.status, jsonOrText(text));
      if (wrong) failures.push(`${wrong}: ${shown} -> ${text.slice(0, 300)}`);
      if (ms > HOSTILE_BOUND_MS) failures.push(`${Math.round(ms)} ms: ${shown}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
