import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCRequest,
  type JSONRPCResponse,
  LATEST_PROTOCOL_VERSION,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from '../api-client/index.ts';
import { errorText, renderContent } from './render.ts';
import { type GeneratedTool, generateTools, ToolInputError, toRequest } from './tools.ts';

export const MCP_SERVER_INFO = { name: 'webdata', version: '1' } as const;

/** Answers one JSON-RPC request of an MCP client; notifications need no answer and are not passed here. */
export type McpHandler = (request: JSONRPCRequest) => Promise<JSONRPCResponse>;

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

async function callTool(
  tool: GeneratedTool,
  args: Record<string, unknown>,
  api: ApiClient,
): Promise<CallToolResult> {
  let request;
  try {
    request = toRequest(tool, args);
  } catch (err) {
    if (err instanceof ToolInputError)
      return {
        isError: true,
        content: [
          { type: 'text', text: `HTTP 400: ${err.message}\n- ${err.field}: ${err.detail}` },
        ],
      };
    throw err;
  }
  const res = await api.request(request.method, request.path, request.body);
  if (res.status >= 400)
    return { isError: true, content: [{ type: 'text', text: errorText(res.status, res.body) }] };
  const body = res.body as Record<string, unknown>;
  return {
    content: await renderContent(tool.route.render, body, api),
    structuredContent: body,
    // A page that could not be fetched is an answer (HTTP 200, success false) for programs, but
    // an error for an agent, who should see it as one.
    ...(body.success === false ? { isError: true } : {}),
  };
}

class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** The request checked against its method's SDK schema; what fails is an invalid-params error naming it. */
function checkedRequest<T>(
  schema: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | { success: false; error: { message: string } };
  },
  request: JSONRPCRequest,
): T {
  const parsed = schema.safeParse(request);
  if (!parsed.success)
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid ${request.method} request: ${parsed.error.message}`,
    );
  return parsed.data;
}

/**
 * The MCP server side for both transports: the tools are the API's routes, called through `api`
 * as one user. The methods and answers are the SDK `Server`'s for a server with only the tools
 * capability (SDK schemas check each request), dispatched by method name: the SDK's `Protocol`
 * tells a request from a response by attempting schemas that fail, and a failed zod parse builds
 * an Error and its messages, which profiled as the largest cost of a stateless HTTP tool call.
 */
export function createMcpHandler(
  api: ApiClient,
  tools: () => Promise<GeneratedTool[]> = toolCatalog(api),
): McpHandler {
  const methods: Record<string, (request: JSONRPCRequest) => Promise<Record<string, unknown>>> = {
    initialize: async (request) => {
      const requested = checkedRequest(InitializeRequestSchema, request).params.protocolVersion;
      return {
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
          ? requested
          : LATEST_PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: MCP_SERVER_INFO,
      };
    },
    ping: async () => ({}),
    'tools/list': async () => ({
      tools: (await tools()).map((t) => ({
        name: t.route.name,
        description: t.description,
        inputSchema: t.inputSchema,
        ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
        annotations: {
          readOnlyHint: t.route.readOnly ?? false,
          destructiveHint: t.route.destructive ?? false,
          openWorldHint: true,
        },
      })),
    }),
    'tools/call': async (request) => {
      const { name, arguments: args } = checkedRequest(CallToolRequestSchema, request).params;
      const tool = (await tools()).find((t) => t.route.name === name);
      if (!tool)
        return { isError: true, content: [{ type: 'text', text: `unknown tool "${name}"` }] };
      return callTool(tool, args ?? {}, api);
    },
  };
  return async (request) => {
    const id: RequestId = request.id;
    const method = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
    if (!method)
      return {
        jsonrpc: '2.0',
        id,
        error: { code: ErrorCode.MethodNotFound, message: 'Method not found' },
      };
    try {
      return { jsonrpc: '2.0', id, result: await method(request) };
    } catch (err) {
      const code = err instanceof RpcError ? err.code : ErrorCode.InternalError;
      return {
        jsonrpc: '2.0',
        id,
        error: { code, message: err instanceof Error ? err.message : 'Internal error' },
      };
    }
  };
}
