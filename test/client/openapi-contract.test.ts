import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebdataClient } from '../../packages/client/src/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  CHECK_PRELUDE,
  type OpenApi,
  queryTs,
  requestBodyTs,
  responseTs,
  typeErrors,
} from './openapi-types.ts';

/**
 * Every method of the client, with the route it calls and what it sends: a JSON body, query
 * parameters, or nothing beyond the path. `request` is the TypeScript type of what it sends,
 * read off the method's own signature so the check follows the client as it is.
 */
const METHODS: Record<string, { route: string; body?: string; query?: string }> = {
  search: { route: 'POST /api/v1/search', body: "Parameters<Client['search']>[0]" },
  scrape: { route: 'POST /api/v1/scrape/single', body: "Parameters<Client['scrape']>[0]" },
  scrapeBatch: { route: 'POST /api/v1/scrape/batch', body: "Parameters<Client['scrapeBatch']>[0]" },
  sequence: { route: 'POST /api/v1/scrape/sequence', body: "Parameters<Client['sequence']>[0]" },
  startScrape: {
    route: 'POST /api/v1/scrape/async/single',
    body: "Parameters<Client['startScrape']>[0]",
  },
  startBatch: {
    route: 'POST /api/v1/scrape/async/batch',
    body: "Parameters<Client['startBatch']>[0]",
  },
  startSequence: {
    route: 'POST /api/v1/scrape/async/sequence',
    body: "Parameters<Client['startSequence']>[0]",
  },
  startSequenceBatch: {
    route: 'POST /api/v1/scrape/async/sequence/batch',
    body: "Parameters<Client['startSequenceBatch']>[0]",
  },
  startSearchBatch: {
    route: 'POST /api/v1/scrape/async/search/batch',
    body: "Parameters<Client['startSearchBatch']>[0]",
  },
  startExtract: { route: 'POST /api/v1/extract', body: "Parameters<Client['startExtract']>[0]" },
  job: {
    route: 'GET /api/v1/scrape/async/job/{id}',
    query: "NonNullable<Parameters<Client['job']>[1]>",
  },
  jobs: {
    route: 'GET /api/v1/scrape/async/jobs',
    query: "NonNullable<Parameters<Client['jobs']>[0]>",
  },
  usage: { route: 'GET /api/v1/usage', query: "NonNullable<Parameters<Client['usage']>[0]>" },
  cancelJob: { route: 'DELETE /api/v1/scrape/async/job/{id}' },
  deleteCache: { route: 'DELETE /api/v1/cache', query: "Parameters<Client['deleteCache']>[0]" },
  map: { route: 'POST /api/v1/map', body: "Parameters<Client['map']>[0]" },
  pdfFromHtml: {
    route: 'POST /api/v1/pdf/html',
    body: "{ html: Parameters<Client['pdfFromHtml']>[0] } & NonNullable<Parameters<Client['pdfFromHtml']>[1]>",
  },
  pdfFromUrl: {
    route: 'POST /api/v1/pdf/url',
    body: "{ url: Parameters<Client['pdfFromUrl']>[0] } & NonNullable<Parameters<Client['pdfFromUrl']>[1]>",
  },
  screenshot: { route: 'POST /api/v1/screenshot', body: "Parameters<Client['screenshot']>[0]" },
  createSession: {
    route: 'POST /api/v1/browser-sandbox/session',
    body: "NonNullable<Parameters<Client['createSession']>[0]>",
  },
  session: { route: 'GET /api/v1/browser-sandbox/session/{id}' },
  closeSession: { route: 'DELETE /api/v1/browser-sandbox/session/{id}' },
  resumeSession: { route: 'POST /api/v1/browser-sandbox/session/{id}/resume' },
  sessionRecording: { route: 'GET /api/v1/browser-sandbox/session/{id}/recording' },
};
/** Methods built on others: `waitForJob` polls `job` and answers with its type. */
const DERIVED = ['waitForJob'];

/**
 * A TypeScript file that compiles only if the client agrees with the document: what it sends is
 * accepted (types and fields), what the server answers fits the client's types, and neither side
 * has a field the other lacks. Query parameters are strings on the wire, so only their names are
 * compared.
 */
function checkSource(doc: OpenApi): string {
  const lines = [
    `import type { WebdataClient as Client } from '../../packages/client/src/index.ts';`,
    CHECK_PRELUDE,
  ];
  for (const [name, m] of Object.entries(METHODS)) {
    const res = `${name}Res`;
    lines.push(`type ${res} = ${responseTs(doc, m.route)};`);
    lines.push(`type ${name}Got = Awaited<ReturnType<Client['${name}']>>;`);
    lines.push(`export const ${name}AnswerFits = (x: ${res}): ${name}Got => x;`);
    lines.push(
      `export const ${name}AnswerFieldsClientLacks: NoneOf<Surplus<${res}, ${name}Got>> = true;`,
    );
    lines.push(
      `export const ${name}AnswerFieldsServerNeverSends: NoneOf<Surplus<${name}Got, ${res}>> = true;`,
    );
    const sent = m.body ?? m.query;
    if (!sent) continue;
    lines.push(
      `type ${name}Accepted = ${m.body ? requestBodyTs(doc, m.route) : queryTs(doc, m.route)};`,
    );
    lines.push(`type ${name}Sent = ${sent};`);
    if (m.body)
      lines.push(`export const ${name}RequestAccepted = (x: ${name}Sent): ${name}Accepted => x;`);
    lines.push(
      `export const ${name}RequestFieldsServerRefuses: NoneOf<Surplus<${name}Sent, ${name}Accepted>> = true;`,
    );
    lines.push(
      `export const ${name}RequestFieldsClientLacks: NoneOf<Surplus<${name}Accepted, ${name}Sent>> = true;`,
    );
  }
  return lines.join('\n');
}

let t: TestServer;
let doc: OpenApi;

beforeAll(async () => {
  t = await startTestServer();
  doc = (await (await fetch(`${t.base}/openapi.json`)).json()) as OpenApi;
});
afterAll(async () => {
  await t?.close();
});

describe('@webdata/client against the served /openapi.json', () => {
  it('checks every method of the client', () => {
    const methods = Object.getOwnPropertyNames(WebdataClient.prototype).filter(
      (n) => n !== 'constructor',
    );
    expect(methods.sort()).toEqual([...Object.keys(METHODS), ...DERIVED].sort());
  });

  it("types every request and answer of the client as the server's document does", () => {
    const path = fileURLToPath(new URL('./openapi-contract.check.ts', import.meta.url));
    expect(typeErrors(path, checkSource(doc))).toEqual([]);
  }, 120_000);

  it('catches a client type that drifts from the document', () => {
    const path = fileURLToPath(new URL('./openapi-contract.check.ts', import.meta.url));
    const drifted = { ...doc, paths: { ...doc.paths } };
    const single = doc.paths['/api/v1/scrape/single']!.post!;
    const body = single.requestBody!.content['application/json'].schema;
    const { onlyMainContent: _dropped, ...properties } = body.properties!;
    const answer = single.responses['200']!.content!['application/json']!.schema;
    const { cost: _gone, ...answerProperties } = answer.properties!;
    const responses = {
      ...single.responses,
      200: {
        content: {
          'application/json': { schema: { ...answer, properties: answerProperties, required: [] } },
        },
      },
    };
    drifted.paths['/api/v1/scrape/single'] = {
      post: {
        ...single,
        requestBody: { content: { 'application/json': { schema: { ...body, properties } } } },
        responses,
      },
    };
    const errors = typeErrors(path, checkSource(drifted)).join('\n');
    expect(errors).toMatch(/scrapeRequestFieldsServerRefuses[^\n]*\n[^\n]*\.onlyMainContent/);
    expect(errors).toMatch(/scrapeAnswerFieldsServerNeverSends[^\n]*\n[^\n]*\.cost/);
    expect(errors).toMatch(/scrapeAnswerFits/);
    expect(errors).not.toMatch(/scrapeBatch|search/);
  }, 120_000);
});
