import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ApiClient } from '../api-client/index.ts';
import { createMcpHandler } from './server.ts';

/** Serves MCP on stdin/stdout until the client closes the pipe; requests are answered as they come, in any order. */
export async function serveStdio(api: ApiClient): Promise<void> {
  const handle = createMcpHandler(api);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  // Logs go to stderr: stdout is the protocol's.
  const report = (err: Error) => process.stderr.write(`mcp: ${err.message}\n`);
  transport.onerror = report;
  transport.onmessage = (message) => {
    if ('method' in message && 'id' in message)
      handle(message)
        .then((response) => transport.send(response))
        .catch(report);
  };
  await transport.start();
  await closed;
}
