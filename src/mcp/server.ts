import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from '../api-client/index.ts';
import { errorText, renderContent } from './render.ts';
import { generateTools, toRequest, ToolInputError, type GeneratedTool } from './tools.ts';

export const MCP_SERVER_INFO = { name: 'webdata', version: '1' } as const;

/**
 * One validator for every server: /mcp builds a server per request, and the SDK would otherwise
 * build a fresh Ajv (formats and all) for each, milliseconds of every call. It validates only
 * what clients send back to elicitations, which these tools never ask for.
 */
const validator = new AjvJsonSchemaValidator();

/**
 * Memoises the generated tools: the OpenAPI document only changes with the server's code, and a
 * remote one is fetched once rather than on every `tools/list`.
 */
export function toolCatalog(api: ApiClient): () => Promise<GeneratedTool[]> {
  let tools: Promise<GeneratedTool[]> | undefined;
  return () => {
    tools ??= api.openapi().then((doc) => generateTools(doc));
    tools.catch(() => {
      tools = undefined;
    });
    return tools;
  };
}

async function callTool(tool: GeneratedTool, args: Record<string, unknown>, api: ApiClient): Promise<CallToolResult> {
  let request;
  try {
    request = toRequest(tool, args);
  } catch (err) {
    if (err instanceof ToolInputError) return { isError: true, content: [{ type: 'text', text: `HTTP 400: ${err.message}\n- ${err.field}: ${err.detail}` }] };
    throw err;
  }
  const res = await api.request(request.method, request.path, request.body);
  if (res.status >= 400) return { isError: true, content: [{ type: 'text', text: errorText(res.status, res.body) }] };
  const body = res.body as Record<string, unknown>;
  return {
    content: await renderContent(tool.route.render, body, api),
    structuredContent: body,
    // A page that could not be fetched is an answer (HTTP 200, success false) for programs, but
    // an error for an agent, who should see it as one.
    ...(body.success === false ? { isError: true } : {}),
  };
}

/** An MCP server whose tools are the API's routes, called through `api` as one user. */
export function createMcpServer(api: ApiClient, tools: () => Promise<GeneratedTool[]> = toolCatalog(api)): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} }, jsonSchemaValidator: validator });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await tools()).map((t) => ({
      name: t.route.name,
      description: t.description,
      inputSchema: t.inputSchema,
      ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      annotations: { readOnlyHint: t.route.readOnly ?? false, destructiveHint: t.route.destructive ?? false, openWorldHint: true },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = (await tools()).find((t) => t.route.name === request.params.name);
    if (!tool) return { isError: true, content: [{ type: 'text', text: `unknown tool "${request.params.name}"` }] };
    return callTool(tool, request.params.arguments ?? {}, api);
  });
  return server;
}
