import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  type JSONRPCRequest,
  JSONRPCRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpHandler } from './server.ts';

/** An answer for the HTTP exchange: its status and JSON body (none for 202). */
export interface ExchangeAnswer {
  status: number;
  body?: unknown;
}

const MAX_BATCH = 100;

function rpcError(status: number, code: number, message: string): ExchangeAnswer {
  return { status, body: { jsonrpc: '2.0', error: { code, message }, id: null } };
}

/** Checks a message with the schema its shape calls for: a request or a notification is checked as one, not tried against every kind. */
function parseMessage(raw: unknown): JSONRPCMessage | undefined {
  const shaped = raw !== null && typeof raw === 'object' && 'method' in raw;
  const schema = !shaped
    ? JSONRPCMessageSchema
    : 'id' in raw
      ? JSONRPCRequestSchema
      : JSONRPCNotificationSchema;
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;

/**
 * One stateless Streamable HTTP exchange in JSON mode: the messages of one POST, already parsed
 * by Fastify, answered with one JSON body once every request among them has its response. The
 * SDK's Node transport would convert the Node request to a Web `Request` and its `Response` back,
 * which profiled as a fifth of a cheap tool call. The header checks are the SDK transport's, with
 * its status codes and JSON-RPC error bodies; notifications (and responses, as this server asks
 * nothing of clients) are accepted with 202.
 */
export async function answerExchange(
  headers: Record<string, string | string[] | undefined>,
  body: unknown,
  handle: McpHandler,
): Promise<ExchangeAnswer> {
  const accept = String(headers.accept ?? '');
  // The spec has clients accept both; the SDK transport refuses one that does not, so this does too.
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return rpcError(
      406,
      -32000,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
    );
  }
  const version = headers['mcp-protocol-version'];
  if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return rpcError(
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    );
  }
  if (Array.isArray(body) && body.length > MAX_BATCH)
    return rpcError(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
  const messages = (Array.isArray(body) ? body : [body]).map(parseMessage);
  if (messages.some((m) => m === undefined))
    return rpcError(400, -32700, 'Parse error: Invalid JSON-RPC message');
  const requests = (messages as JSONRPCMessage[]).filter(isRequest);
  if (requests.some((r) => r.method === 'initialize') && messages.length > 1)
    return rpcError(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  if (requests.length === 0) return { status: 202 };
  const responses = await Promise.all(requests.map(handle));
  // As the SDK transport answers: one response bare, several as an array.
  return { status: 200, body: responses.length === 1 ? responses[0] : responses };
}
