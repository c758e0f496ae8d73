import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { authPlugin } from './auth.ts';
import type { RouteDeps } from './deps.ts';
import { mcpRoutes } from '../mcp/index.ts';
import { installErrorHandler } from './errors.ts';
import { inflightPlugin } from './inflight.ts';
import { requestLogFields } from './log.ts';
import { filesRoutes } from './routes/files.ts';
import { firecrawlRoutes } from './routes/firecrawl/routes.ts';
import { browserSessionRoutes } from './routes/browser-sessions.ts';
import { healthRoutes } from './routes/health.ts';
import { jobStartRoutes } from './routes/jobs-start.ts';
import { jobRoutes } from './routes/jobs.ts';
import { mapRoutes } from './routes/map.ts';
import { renderRoutes } from './routes/render.ts';
import { scrapeBatchRoutes } from './routes/scrape-batch.ts';
import { scrapeSequenceRoutes } from './routes/scrape-sequence.ts';
import { scrapeSingleRoutes } from './routes/scrape-single.ts';
import { searchRoutes } from './routes/search.ts';
import { sessionSocketRoutes } from './routes/session-sockets.ts';

export interface AppOptions {
  logLevel?: string;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
}

/** The API's routes, mounted under /api. One plugin per resource, each with its schema beside it. */
const apiRoutes = [scrapeSingleRoutes, scrapeBatchRoutes, searchRoutes, mapRoutes, browserSessionRoutes, scrapeSequenceRoutes, renderRoutes, jobStartRoutes, jobRoutes];

export async function buildApp(deps: RouteDeps, opts: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = deps.services;
  const app = Fastify({
    logger: { level: opts.logLevel ?? config.logLevel, serializers: { req: requestLogFields }, ...(opts.logStream ? { stream: opts.logStream } : {}) },
    bodyLimit: config.maxRequestBytes,
    // Unknown fields are refused by name rather than silently dropped: a typo in an option
    // should not quietly change what the caller gets.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    trustProxy: config.trustProxy,
    // Paths the router cannot read (bad percent-escapes, over-long ids) get the API's error shape too.
    frameworkErrors: (err, _request, reply: FastifyReply) => {
      const error =
        err.code === 'FST_ERR_BAD_URL' ? 'the path is not valid percent-encoding' : err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is longer than the maximum length' : err.message;
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
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  await app.register(authPlugin, { keys: deps.keys });
  await app.register(inflightPlugin, { maxPerUser: config.maxInflightPerUser });
  await app.register(healthRoutes);
  await app.register(sessionSocketRoutes, deps);
  await app.register(filesRoutes, deps);
  await app.register(
    async (api) => {
      for (const routes of apiRoutes) await api.register(routes, deps);
    },
    { prefix: '/api' },
  );
  await app.register(firecrawlRoutes, deps);
  await app.register(mcpRoutes);
  return app;
}
