import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ApiClient } from '../api-client/index.ts';
import { createMcpServer } from './server.ts';

/** Serves MCP on stdin/stdout until the client closes the pipe. */
export async function serveStdio(api: ApiClient): Promise<void> {
  const server = createMcpServer(api);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  await closed;
}
