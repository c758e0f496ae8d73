import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE = join(ROOT, 'node_modules/.bin/node');

export type ToolResult = {
  isError?: boolean;
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  structuredContent?: any;
};

/**
 * Real MCP SDK clients for the current test file, all closed after its tests: `http` speaks
 * Streamable HTTP to `server`'s /mcp with a key, `stdio` runs `webdata mcp` as a process.
 */
export function useMcpClients(server: { base: string }) {
  const clients: Client[] = [];
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
  });
  async function connect(transport: Transport): Promise<Client> {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }
  return {
    http: (key: string) =>
      connect(
        new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      ),
    stdio: (env: Record<string, string>) =>
      connect(
        new StdioClientTransport({
          command: NODE,
          args: [join(ROOT, 'src/cli/main.ts'), 'mcp'],
          env: { PATH: process.env.PATH ?? '', ...env },
          stderr: 'ignore',
        }),
      ),
  };
}

export const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

/** The text blocks of a tool's answer, one per line. */
export const textOf = (r: ToolResult) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
