import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import ajvCompiler from '@fastify/ajv-compiler';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { mcpRoutes } from '../mcp/index.ts';
import { authPlugin } from './auth.ts';
import type { RouteDeps } from './deps.ts';
import { installErrorHandler } from './errors.ts';
import { inflightPlugin } from './inflight.ts';
import { lazyValidators } from './lazy-validators.ts';
import { loadSheddingPlugin } from './load-shedding.ts';
import { requestLogFields } from './log.ts';
import { operationCalls, operationsPlugin } from './operations.ts';
import { requestMetricsPlugin } from './request-metrics.ts';
import { browserSessionRoutes } from './routes/browser-sessions.ts';
import { cacheRoutes } from './routes/cache.ts';
import { crawlRoutes } from './routes/crawl.ts';
import { extractRoutes } from './routes/extract.ts';
import { filesRoutes } from './routes/files.ts';
import { firecrawlRoutes } from './routes/firecrawl/routes.ts';
import { healthRoutes } from './routes/health.ts';
import { jobRoutes } from './routes/jobs.ts';
import { jobStartRoutes } from './routes/jobs-start.ts';
import { mapRoutes } from './routes/map.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { monitorRoutes } from './routes/monitors.ts';
import { scrapeBatchRoutes } from './routes/scrape-batch.ts';
import { scrapeSequenceRoutes } from './routes/scrape-sequence.ts';
import { scrapeSingleRoutes } from './routes/scrape-single.ts';
import { screenshotPdfRoutes } from './routes/screenshot-pdf.ts';
import { searchRoutes } from './routes/search.ts';
import { sessionFileRoutes } from './routes/session-files.ts';
import { sessionProfileRoutes } from './routes/session-profiles.ts';
import { sessionRecordingRoutes } from './routes/session-recording.ts';
import { sessionReplayRoutes } from './routes/session-replay.ts';
import { sessionSocketRoutes } from './routes/session-sockets.ts';
import { usageRoutes } from './routes/usage.ts';
import { webhookRoutes } from './routes/webhooks.ts';

/**
 * Answers what Node's parser rejects before Fastify sees a request, in the API's error shape:
 * 408 for a request not received in time, 431 for oversized headers, 400 otherwise.
 */
function clientError(err: NodeJS.ErrnoException, socket: Duplex, timeoutMs: number): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, error] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, `the request was not received within ${timeoutMs} ms`]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'the request headers are too large']
        : [400, 'the request is not valid HTTP'];
  const body = JSON.stringify({ success: false, error });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export interface AppOptions {
  logLevel?: string;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
}

/** The API's routes, mounted under /api. One plugin per resource, each with its schema beside it. */
const apiRoutes = [
  scrapeSingleRoutes,
  scrapeBatchRoutes,
  searchRoutes,
  mapRoutes,
  browserSessionRoutes,
  sessionFileRoutes,
  sessionProfileRoutes,
  sessionRecordingRoutes,
  scrapeSequenceRoutes,
  screenshotPdfRoutes,
  jobStartRoutes,
  jobRoutes,
  crawlRoutes,
  webhookRoutes,
  usageRoutes,
  extractRoutes,
  cacheRoutes,
  monitorRoutes,
];

export async function buildApp(deps: RouteDeps, opts: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = deps.services;
  const app = Fastify({
    logger: {
      level: opts.logLevel ?? config.logLevel,
      serializers: { req: requestLogFields },
      ...(opts.logStream ? { stream: opts.logStream } : {}),
    },
    bodyLimit: config.maxRequestBytes,
    // A client that trickles its body would otherwise hold a socket and an in-flight place for
    // ever. Node checks open requests every connectionsCheckingInterval (30 s by default, longer
    // than a short limit), so it checks at a quarter of the limit.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(config.requestTimeoutMs / 4)),
    },
    clientErrorHandler: (err, socket) => clientError(err, socket, config.requestTimeoutMs),
    // Unknown fields are refused by name rather than silently dropped: a typo in an option
    // should not quietly change what the caller gets.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    schemaController: { compilersFactory: { buildValidator: lazyValidators(ajvCompiler()) } },
    trustProxy: config.trustProxy,
    // Paths the router cannot read (bad percent-escapes, over-long ids) get the API's error shape too.
    frameworkErrors: (err, _request, reply: FastifyReply) => {
      const error =
        err.code === 'FST_ERR_BAD_URL'
          ? 'the path is not valid percent-encoding'
          : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? 'a path parameter is longer than the maximum length'
            : err.message;
      reply.code(err.statusCode ?? 400).send({ success: false, error });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installErrorHandler(app);
  // The docs UI registers its own routes; they are public like the document they show.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...(route.config as object), public: true };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'webdata', version: '1', description: 'Self-hosted web data API' },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  await app.register(requestMetricsPlugin);
  // Before auth: a shed request costs no key lookup.
  await app.register(loadSheddingPlugin, {
    maxEventLoopDelayMs: config.shedEventLoopDelayMs,
    maxHeapBytes: config.shedHeapBytes,
    maxRssBytes: config.shedRssBytes,
  });
  await app.register(authPlugin, { keys: deps.keys });
  await app.register(inflightPlugin, { maxPerUser: config.maxInflightPerUser });
  await app.register(operationsPlugin);
  await app.register(healthRoutes);
  await app.register(metricsRoutes, { token: config.metricsToken });
  await app.register(sessionSocketRoutes, deps);
  await app.register(sessionReplayRoutes, deps);
  await app.register(filesRoutes, deps);
  await app.register(
    async (api) => {
      for (const routes of apiRoutes) await api.register(routes, deps);
    },
    { prefix: '/api' },
  );
  await app.register(firecrawlRoutes, deps);
  await app.register(mcpRoutes, {
    operationCalls: (request, reply) => operationCalls(app, deps, request, reply),
  });
  return app;
}
