import type { OpenApiDocument, OpenApiOperation } from '../api-client/index.ts';
import type { RenderKind } from './render.ts';

/**
 * The MCP tools, each one API route. Only the name, the route and how to render the answer are
 * written here: the input schema, output schema and description come from the server's OpenAPI
 * document, which Fastify builds from the very schemas the routes validate with. A route the
 * server does not have is left out, so a row for a newer operation costs older servers nothing.
 */
export interface ToolRoute {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI path, with `{param}` placeholders. */
  path: string;
  render: RenderKind;
  /** Said before the route's own summary, for an agent choosing between tools. */
  hint?: string;
  readOnly?: boolean;
  destructive?: boolean;
}

export const TOOL_ROUTES: readonly ToolRoute[] = [
  { name: 'search', method: 'POST', path: '/api/v1/search', render: 'search', hint: 'Web search.' },
  {
    name: 'scrape',
    method: 'POST',
    path: '/api/v1/scrape/single',
    render: 'page',
    hint: 'Read one web page as markdown (or HTML).',
  },
  {
    name: 'batch_scrape',
    method: 'POST',
    path: '/api/v1/scrape/batch',
    render: 'pages',
    hint: 'Read several pages in one call.',
  },
  {
    name: 'map',
    method: 'POST',
    path: '/api/v1/map',
    render: 'map',
    hint: 'List the URLs of a site.',
  },
  {
    name: 'screenshot',
    method: 'POST',
    path: '/api/v1/screenshot',
    render: 'image',
    hint: 'See a page: returns the PNG as an image.',
  },
  {
    name: 'pdf_from_url',
    method: 'POST',
    path: '/api/v1/pdf/url',
    render: 'json',
    hint: 'Print a page to PDF; returns its download URL.',
  },
  {
    name: 'pdf_from_html',
    method: 'POST',
    path: '/api/v1/pdf/html',
    render: 'json',
    hint: 'Render HTML to PDF; returns its download URL.',
  },
  {
    name: 'sequence',
    method: 'POST',
    path: '/api/v1/scrape/sequence',
    render: 'sequence',
    hint: 'Click, type and wait in a browser; each scrape step captures the page.',
  },
  {
    name: 'crawl',
    method: 'POST',
    path: '/api/v1/crawl',
    render: 'started',
    hint: 'Crawl a site in the background, following its links and sitemaps from the start URL; read the pages with job_status.',
  },
  {
    name: 'start_batch_scrape',
    method: 'POST',
    path: '/api/v1/scrape/async/batch',
    render: 'started',
    hint: 'Background job for many pages; poll with job_status.',
  },
  {
    name: 'job_status',
    method: 'GET',
    path: '/api/v1/scrape/async/job/{id}',
    render: 'job',
    readOnly: true,
    hint: 'A background job and a page of its results.',
  },
  {
    name: 'job_list',
    method: 'GET',
    path: '/api/v1/scrape/async/jobs',
    render: 'json',
    readOnly: true,
  },
  {
    name: 'job_cancel',
    method: 'DELETE',
    path: '/api/v1/scrape/async/job/{id}',
    render: 'json',
    destructive: true,
  },
  {
    name: 'cache_delete',
    method: 'DELETE',
    path: '/api/v1/cache',
    render: 'json',
    destructive: true,
    hint: 'Forget cached pages (give url or prefix), so the next scrape with maxAge fetches them again.',
  },
  {
    name: 'monitor_create',
    method: 'POST',
    path: '/api/v1/monitors',
    render: 'json',
    hint: 'Watch pages on a schedule: each check compares them with the last one and sends changes to a webhook.',
  },
  {
    name: 'monitor_list',
    method: 'GET',
    path: '/api/v1/monitors',
    render: 'json',
    readOnly: true,
  },
  {
    name: 'monitor_get',
    method: 'GET',
    path: '/api/v1/monitors/{id}',
    render: 'json',
    readOnly: true,
  },
  {
    name: 'monitor_update',
    method: 'PATCH',
    path: '/api/v1/monitors/{id}',
    render: 'json',
    hint: 'Pause ({"paused": true}) or resume a monitor, or change its schedule, notify or webhook.',
  },
  {
    name: 'monitor_checks',
    method: 'GET',
    path: '/api/v1/monitors/{id}/checks',
    render: 'json',
    readOnly: true,
    hint: "What a monitor's checks found: each page's change status (new, same, changed, removed) and diff.",
  },
  {
    name: 'monitor_delete',
    method: 'DELETE',
    path: '/api/v1/monitors/{id}',
    render: 'json',
    destructive: true,
  },
  {
    name: 'session_create',
    method: 'POST',
    path: '/api/v1/browser-sandbox/session',
    render: 'json',
    hint: 'A remote browser for Playwright or Puppeteer (billed per minute until closed).',
  },
  {
    name: 'session_get',
    method: 'GET',
    path: '/api/v1/browser-sandbox/session/{id}',
    render: 'json',
    readOnly: true,
  },
  {
    name: 'session_close',
    method: 'DELETE',
    path: '/api/v1/browser-sandbox/session/{id}',
    render: 'json',
    destructive: true,
  },
];

type JsonSchema = Record<string, unknown>;

export interface GeneratedTool {
  route: ToolRoute;
  description: string;
  inputSchema: {
    type: 'object';
    properties: Record<string, JsonSchema>;
    required?: string[];
    additionalProperties?: boolean;
  };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
}

function bodySchema(op: OpenApiOperation): JsonSchema | undefined {
  return op.requestBody?.content?.['application/json']?.schema;
}

function successSchema(op: OpenApiOperation): JsonSchema | undefined {
  const schema = op.responses?.['200']?.content?.['application/json']?.schema;
  return schema && schema.type === 'object' ? schema : undefined;
}

function generate(route: ToolRoute, op: OpenApiOperation): GeneratedTool {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  const queryParams: string[] = [];
  for (const p of op.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    properties[p.name] = {
      ...(p.schema ?? { type: 'string' }),
      ...(p.description ? { description: p.description } : {}),
    };
    if (p.required || p.in === 'path') required.push(p.name);
    (p.in === 'path' ? pathParams : queryParams).push(p.name);
  }
  const body = bodySchema(op);
  if (body) {
    Object.assign(properties, (body.properties as Record<string, JsonSchema> | undefined) ?? {});
    required.push(...((body.required as string[] | undefined) ?? []));
  }
  const outputSchema = successSchema(op);
  return {
    route,
    description: [route.hint, op.summary].filter(Boolean).join(' '),
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    },
    ...(outputSchema ? { outputSchema: outputSchema as GeneratedTool['outputSchema'] } : {}),
    pathParams,
    queryParams,
    hasBody: body !== undefined,
  };
}

/** The tools this server can offer, generated from its OpenAPI document. */
export function generateTools(
  doc: OpenApiDocument,
  routes: readonly ToolRoute[] = TOOL_ROUTES,
): GeneratedTool[] {
  const tools: GeneratedTool[] = [];
  for (const route of routes) {
    const op = doc.paths[route.path]?.[route.method.toLowerCase()];
    if (op) tools.push(generate(route, op));
  }
  return tools;
}

export class ToolInputError extends Error {
  readonly field: string;
  readonly detail: string;
  constructor(field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.field = field;
    this.detail = detail;
  }
}

/** A tool call's arguments as the route's request: path, query string and JSON body. */
export function toRequest(
  tool: GeneratedTool,
  args: Record<string, unknown>,
): { method: string; path: string; body?: unknown } {
  const rest: Record<string, unknown> = { ...args };
  let path = tool.route.path;
  for (const name of tool.pathParams) {
    const value = rest[name];
    if (typeof value !== 'string' || !value) throw new ToolInputError(name, 'is required');
    path = path.replace(`{${name}}`, encodeURIComponent(value));
    delete rest[name];
  }
  const query = new URLSearchParams();
  for (const name of tool.queryParams) {
    if (rest[name] === undefined) continue;
    query.set(name, String(rest[name]));
    delete rest[name];
  }
  const qs = query.toString();
  const url = qs ? `${path}?${qs}` : path;
  if (tool.hasBody) return { method: tool.route.method, path: url, body: rest };
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new ToolInputError(unknown, 'is not a known field');
  return { method: tool.route.method, path: url };
}
