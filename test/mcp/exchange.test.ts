import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_KEY, type TestServer } from '../helpers/server.ts';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const HEADERS = {
  authorization: `Bearer ${TEST_KEY}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

async function post(
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${t.base}/mcp`, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

// The SDK client only sends well-formed traffic; these are the JSON-RPC and HTTP edges of /mcp a hand-written client meets.
describe('/mcp exchanges at the protocol edges', () => {
  it('negotiates the protocol version on initialize, offering only tools', async () => {
    const params = {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    };
    const ok = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'webdata' },
      },
    });
    const future = await post({
      jsonrpc: '2.0',
      id: 'a',
      method: 'initialize',
      params: { ...params, protocolVersion: '2099-01-01' },
    });
    expect(future.json.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    const bad = await post({
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: { capabilities: {} },
    });
    expect(bad.json).toMatchObject({ id: 2, error: { code: -32602 } });
  });

  it('answers notifications with 202, and a batch with one response per request', async () => {
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const batch = await post([
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'job_list', arguments: { limit: 1 } },
      },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.json).toHaveLength(2);
    expect(batch.json[0]).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    expect(batch.json[1]).toMatchObject({ id: 8, result: { structuredContent: { jobs: [] } } });
  });

  it('names what is wrong: unknown method, bad params, unknown tool, malformed message', async () => {
    expect((await post({ jsonrpc: '2.0', id: 1, method: 'resources/list' })).json).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not found' },
    });
    const params = await post({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { arguments: {} },
    });
    expect(params.json.error.code).toBe(-32602);
    expect(params.json.error.message).toContain('name');
    const tool = await post({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'teleport', arguments: {} },
    });
    expect(tool.json.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'unknown tool "teleport"' }],
    });
    const malformed = await post({ jsonrpc: '1.0', id: 4, method: 'ping' });
    expect(malformed).toMatchObject({ status: 400, json: { error: { code: -32700 } } });
    const tooMany = await post(
      Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })),
    );
    expect(tooMany).toMatchObject({ status: 400, json: { error: { code: -32600 } } });
  });

  it('refuses what the Streamable HTTP transport refuses: a client that cannot take JSON and SSE, an unknown protocol version', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await post(ping, { accept: 'application/json' })).status).toBe(406);
    const version = await post(ping, { 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(version.json.error.message).toContain('Unsupported protocol version: 1999-01-01');
    expect((await post(ping, { 'mcp-protocol-version': '2025-06-18' })).status).toBe(200);
  });
});
