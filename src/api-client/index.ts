/**
 * The API as a caller sees it, for the MCP tools and the CLI: the same HTTP requests a program
 * would send, either injected into this process's Fastify app (the /mcp route, an embedded
 * server) or sent to a remote one. Going through the routes rather than the operations keeps one
 * path for validation, auth, limits and charges. (The /mcp route calls operation routes without
 * the fake request, through the routes' own checks: `http/operations.ts`.)
 */
export interface ApiResponse {
  status: number;
  body: unknown;
}

export interface ApiClient {
  request(method: string, path: string, body?: unknown): Promise<ApiResponse>;
  /** The bytes behind a URL the API handed out (a screenshot); undefined when it cannot be read. */
  download(url: string): Promise<{ contentType: string; data: Buffer } | undefined>;
  /** The server's OpenAPI document, which the tools are generated from. */
  openapi(): Promise<OpenApiDocument>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation | undefined> | undefined>;
}

export interface OpenApiOperation {
  summary?: string;
  parameters?: Array<{
    name: string;
    in: string;
    required?: boolean;
    schema?: Record<string, unknown>;
    description?: string;
  }>;
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> } | undefined> };
  responses?: Record<
    string,
    { content?: Record<string, { schema?: Record<string, unknown> } | undefined> } | undefined
  >;
}

/** The minimal surface of Fastify's `inject` the client uses, so this room does not import http/. */
export interface Injector {
  inject(opts: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    payload?: string;
  }): Promise<{
    statusCode: number;
    headers: Record<string, unknown>;
    body: string;
    rawPayload: Buffer;
  }>;
  swagger(): unknown;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { success: false, error: text || 'empty response' };
  }
}

export function injectClient(app: Injector, authorization: string): ApiClient {
  return {
    async request(method, path, body) {
      const headers: Record<string, string> = { authorization };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await app.inject({
        method,
        url: path,
        headers,
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      return { status: res.statusCode, body: parse(res.body) };
    },
    async download(url) {
      const res = await app.inject({ method: 'GET', url: new URL(url, 'http://local').pathname });
      if (res.statusCode !== 200) return undefined;
      return { contentType: String(res.headers['content-type'] ?? ''), data: res.rawPayload };
    },
    async openapi() {
      return app.swagger() as OpenApiDocument;
    },
  };
}

export function httpClient(baseUrl: string, apiKey: string): ApiClient {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async request(method, path, body) {
      const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${base}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: parse(await res.text()) };
    },
    async download(url) {
      const res = await fetch(new URL(url, base));
      if (!res.ok) return undefined;
      return {
        contentType: res.headers.get('content-type') ?? '',
        data: Buffer.from(await res.arrayBuffer()),
      };
    },
    async openapi() {
      const res = await fetch(`${base}/openapi.json`);
      if (!res.ok) throw new Error(`${base}/openapi.json answered HTTP ${res.status}`);
      return (await res.json()) as OpenApiDocument;
    },
  };
}
