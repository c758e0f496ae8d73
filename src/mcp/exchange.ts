import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/** An answer for the HTTP exchange: its status and JSON body (none for 202). */
export interface ExchangeAnswer {
  status: number;
  body?: unknown;
}

const MAX_BATCH = 100;

function rpcError(status: number, code: number, message: string): ExchangeAnswer {
  return { status, body: { jsonrpc: '2.0', error: { code, message }, id: null } };
}

const isRequest = (m: JSONRPCMessage): m is Extract<JSONRPCMessage, { method: string; id: RequestId }> => 'method' in m && 'id' in m;
const isResponse = (m: JSONRPCMessage) => !('method' in m);

/**
 * One stateless Streamable HTTP exchange in JSON mode as an SDK transport: the messages of one
 * POST go in, and the answer is ready when every request among them has its response. It works on
 * the body Fastify has already parsed and answers through Fastify's reply, where the SDK's Node
 * transport converts the Node request to a Web `Request` and its `Response` back, which cost more
 * than the rest of a cheap tool call. The header checks are the SDK transport's, with its status
 * codes and JSON-RPC error bodies.
 */
export class JsonExchange implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #pending = new Map<RequestId, JSONRPCMessage | undefined>();
  #settle: (answer: ExchangeAnswer) => void = () => {};

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** Checks one POST's headers and body, hands its messages to the connected server, and resolves with the answer. */
  answer(headers: Record<string, string | string[] | undefined>, body: unknown): Promise<ExchangeAnswer> {
    const accept = String(headers.accept ?? '');
    // The spec has clients accept both; the SDK transport refuses one that does not, so this does too.
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return Promise.resolve(rpcError(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream'));
    }
    const version = headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return Promise.resolve(rpcError(400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`));
    }
    if (Array.isArray(body) && body.length > MAX_BATCH) return Promise.resolve(rpcError(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`));
    let messages: JSONRPCMessage[];
    try {
      messages = (Array.isArray(body) ? body : [body]).map((m) => JSONRPCMessageSchema.parse(m));
    } catch {
      return Promise.resolve(rpcError(400, -32700, 'Parse error: Invalid JSON-RPC message'));
    }
    const initialize = messages.filter((m) => isRequest(m) && m.method === 'initialize').length;
    if (initialize && messages.length > 1) return Promise.resolve(rpcError(400, -32600, 'Invalid Request: Only one initialization request is allowed'));
    for (const m of messages) if (isRequest(m)) this.#pending.set(m.id, undefined);
    if (this.#pending.size === 0) {
      for (const m of messages) this.onmessage?.(m);
      return Promise.resolve({ status: 202 });
    }
    return new Promise((resolve) => {
      this.#settle = resolve;
      for (const m of messages) this.onmessage?.(m);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Notifications and server requests have no stream to go on in JSON mode; the SDK drops them too.
    const id = isResponse(message) && 'id' in message ? message.id : undefined;
    if (id === undefined || !this.#pending.has(id)) return;
    this.#pending.set(id, message);
    const responses = [...this.#pending.values()];
    if (responses.some((r) => r === undefined)) return;
    // As the SDK transport answers: one response bare, several as an array.
    this.#settle({ status: 200, body: responses.length === 1 ? responses[0] : responses });
  }
}
