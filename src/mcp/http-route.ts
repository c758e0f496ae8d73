import type { FastifyInstance, FastifyReply } from 'fastify';
import { type Injector, injectClient } from '../api-client/index.ts';
import { answerExchange } from './exchange.ts';
import { createMcpHandler, toolCatalog } from './server.ts';

/**
 * MCP over Streamable HTTP at /mcp, stateless: each POST carries whole JSON-RPC messages and gets
 * JSON back, so any instance behind a load balancer can answer and nothing is kept between calls.
 * The auth hook has already checked the bearer key; the tools call the API's routes in-process
 * as that key's user (delegated, so the key is not looked up again), under its limits, with its
 * charges.
 */
export async function mcpRoutes(app: FastifyInstance): Promise<void> {
  const injector = app as unknown as Injector;
  const catalog = toolCatalog(injectClient(injector, ''));
  app.post(
    '/mcp',
    { schema: { hide: true }, config: { forwards: true } },
    async (request, reply) => {
      const delegation = app.delegate(request.user);
      try {
        const handle = createMcpHandler(injectClient(injector, delegation.authorization), catalog);
        const answer = await answerExchange(request.headers, request.body, handle);
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
