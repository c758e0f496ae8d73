/**
 * bench/agents: what the agent-facing layers add to a call, against the native HTTP call measured
 * in the same run on the same page.
 *
 * 1. MCP: the `scrape` tool called with the SDK's own client over Streamable HTTP (/mcp) against
 *    POST /api/v1/scrape/single with fetch. Goal: p50 ratio <= 1.1.
 *    The same tools/call posted with fetch (no SDK client) splits that overhead: what is left
 *    above native is the server's MCP layer, the rest the SDK client's own work.
 * 2. Firecrawl compatibility: POST /v2/scrape (with fetch, as Firecrawl's SDK sends it) against the
 *    same native scrape. Goal: p50 ratio <= 1.05.
 *
 * Each round calls every side once, in a rotating order, so machine load falls on all alike. The page is
 * the fixture article (HTTP path, main-content markdown): a real scrape, not an empty route.
 *
 *   npm run bench:agents     (CALLS=50, WARMUP=20 by default)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFixtureSite } from '../../test/fixtures/site/server.ts';
import { startTestServer, TEST_KEY } from '../../test/helpers/server.ts';

const CALLS = Number(process.env.CALLS ?? 50);
// Warm-up also lets the server's start-up work (browser pool, content workers) finish before timing.
const WARMUP = Number(process.env.WARMUP ?? 20);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * Runs every side once per round, the order rotating from round to round, so load that comes and
 * goes on a shared machine falls on all sides alike; returns each side's p50.
 */
async function rounds(sides: Record<string, () => Promise<void>>): Promise<Record<string, number>> {
  const names = Object.keys(sides);
  for (let i = 0; i < WARMUP; i++) for (const n of names) await sides[n]!();
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < CALLS; i++) {
    for (let j = 0; j < names.length; j++) {
      const n = names[(i + j) % names.length]!;
      times[n]!.push(await timed(sides[n]!));
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times[n]!)]));
}

const site = await startFixtureSite();
const t = await startTestServer({
  WEBDATA_LOG_LEVEL: 'silent',
  WEBDATA_MAX_INFLIGHT_PER_USER: '100',
});
const page = `${site.origin}/article.html`;
const headers = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.base}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200 || json.success !== true)
    throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 200)}`);
  return json;
}

const native = async () => {
  await post('/api/v1/scrape/single', { url: page });
};
const firecrawl = async () => {
  await post('/v2/scrape', { url: page, formats: ['markdown'], origin: 'bench' });
};

const client = new Client({ name: 'bench', version: '1' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${TEST_KEY}` } },
  }),
);
let rpcId = 0;
const mcpFetch = async () => {
  const res = await fetch(`${t.base}/mcp`, {
    method: 'POST',
    headers: { ...headers, accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++rpcId,
      method: 'tools/call',
      params: { name: 'scrape', arguments: { url: page } },
    }),
  });
  const json = (await res.json()) as { result?: { isError?: boolean } };
  if (res.status !== 200 || !json.result || json.result.isError)
    throw new Error(`mcp scrape over fetch failed: ${JSON.stringify(json).slice(0, 200)}`);
};
const mcp = async () => {
  const res = await client.callTool({ name: 'scrape', arguments: { url: page } });
  if (res.isError)
    throw new Error(`mcp scrape failed: ${JSON.stringify(res.content).slice(0, 200)}`);
};

try {
  const p50 = await rounds({ native, mcp, mcpFetch, firecrawl });
  const mcpRatio = p50.mcp! / p50.native!;
  const rawRatio = p50.mcpFetch! / p50.native!;
  const fcRatio = p50.firecrawl! / p50.native!;
  console.log(`${CALLS} rounds, p50, page ${page}`);
  console.log(`  native POST /api/v1/scrape/single   ${fmt(p50.native!)}`);
  console.log(
    `  MCP tools/call scrape over /mcp     ${fmt(p50.mcp!)}   ratio ${mcpRatio.toFixed(3)} (goal <= 1.1)`,
  );
  console.log(
    `  the same tools/call with fetch      ${fmt(p50.mcpFetch!)}   ratio ${rawRatio.toFixed(3)} (the server's MCP layer alone)`,
  );
  console.log(
    `  Firecrawl POST /v2/scrape           ${fmt(p50.firecrawl!)}   ratio ${fcRatio.toFixed(3)} (goal <= 1.05)`,
  );
  console.log(
    `RESULT mcp_over_http=${mcpRatio.toFixed(3)} firecrawl_over_native=${fcRatio.toFixed(3)} mcp_fetch_over_http=${rawRatio.toFixed(3)} native_p50_ms=${p50.native!.toFixed(2)} mcp_p50_ms=${p50.mcp!.toFixed(2)} mcp_fetch_p50_ms=${p50.mcpFetch!.toFixed(2)} firecrawl_p50_ms=${p50.firecrawl!.toFixed(2)} calls=${CALLS}`,
  );
} finally {
  await client.close();
  await t.close();
  await site.close();
}
