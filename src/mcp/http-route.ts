import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type ApiClient,
  type ApiResponse,
  type Injector,
  injectClient,
} from '../api-client/index.ts';
import { answerExchange } from './exchange.ts';
import { createMcpHandler, toolCatalog } from './server.ts';

/** Calls a route in-process without HTTP, or says it cannot (undefined) so the call is injected. */
export type OperationCall = (
  method: string,
  path: string,
  body: unknown,
) => Promise<ApiResponse | undefined>;

export interface McpRouteOptions {
  /** The direct calls for one authenticated /mcp request: they run as its user and stop when its connection closes. */
  operationCalls(request: FastifyRequest, reply: FastifyReply): OperationCall;
}

/** Requests go to the direct call when the route has one, and are injected otherwise. */
function preferDirect(injected: ApiClient, direct: OperationCall): ApiClient {
  return {
    ...injected,
    request: async (method, path, body) =>
      (await direct(method, path, body)) ?? injected.request(method, path, body),
  };
}

/**
 * MCP over Streamable HTTP at /mcp, stateless: each POST carries whole JSON-RPC messages and gets
 * JSON back, so any instance behind a load balancer can answer and nothing is kept between calls.
 * The auth hook has already checked the bearer key; the tools run the API's operation routes
 * in-process as that key's user (the rest injected, delegated so the key is not looked up again),
 * under its limits, with its charges.
 */
export async function mcpRoutes(app: FastifyInstance, opts: McpRouteOptions): Promise<void> {
  const injector = app as unknown as Injector;
  const catalog = toolCatalog(injectClient(injector, ''));
  app.post(
    '/mcp',
    { schema: { hide: true }, config: { forwards: true } },
    async (request, reply) => {
      const delegation = app.delegate(request.user);
      try {
        const api = preferDirect(
          injectClient(injector, delegation.authorization),
          opts.operationCalls(request, reply),
        );
        const answer = await answerExchange(
          request.headers,
          request.body,
          createMcpHandler(api, catalog),
        );
        return reply.code(answer.status).send(answer.body);
      } finally {
        delegation.end();
      }
    },
  );
  // No server-initiated stream and no sessions to end: the spec's answer is 405.
  const notOffered = async (_request: unknown, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ success: false, error: 'this MCP endpoint is stateless: POST JSON-RPC messages' });
  app.get('/mcp', { schema: { hide: true }, config: { forwards: true } }, notOffered);
  app.delete('/mcp', { schema: { hide: true }, config: { forwards: true } }, notOffered);
}
