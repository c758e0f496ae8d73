import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { HttpEngine, startEgressProxy } from '../acquire/index.ts';
import { LocalArtifactStore } from '../artifacts/index.ts';
import { BrowserEngine } from '../browser/index.ts';
import { PageCache } from '../cache/index.ts';
import { SnapshotStore } from '../changes/index.ts';
import type { Config } from '../config.ts';
import { holdPathMatcher } from '../discover/index.ts';
import { holdSchemaWorkers } from '../extract/index.ts';
import { type AppOptions, buildApp, type ServingServices } from '../http/index.ts';
import { Jobs } from '../jobs/index.ts';
import { watch } from '../metrics/index.ts';
import { Monitors } from '../monitors/index.ts';
import { crawlPoliteness, type Services } from '../ops/index.ts';
import { pageContentThreads, stealthSerpFetcher } from '../page/index.ts';
import { createSearchProviders, httpSerpFetcher } from '../search/index.ts';
import { SessionManager } from '../sessions/index.ts';
import {
  type Database,
  KeyStore,
  LedgerStore,
  openDatabase,
  ProfileStore,
  SessionStore,
} from '../store/index.ts';
import { trackConnections } from './connections.ts';
import { closeInSteps, warnLateStep } from './shutdown.ts';
import { startTimer } from './start-timer.ts';

export interface Server {
  app: FastifyInstance;
  database: Database;
  services: ServingServices;
  keys: KeyStore;
  ledger: LedgerStore;
  jobs: Jobs;
  monitors: Monitors;
  /** Base URL the server listens on. */
  address: string;
  /** A key created because none existed; shown once by the caller. */
  createdKey?: string;
  /** Milliseconds each step of the start took (see startTimer). */
  startupMs: Record<string, number>;
  close(): Promise<void>;
}

/** What a process runs on: the services, the stores, and how to close them all. */
export interface Built<S extends Services> {
  services: S;
  database: Database;
  keys: KeyStore;
  ledger: LedgerStore;
  jobs: Jobs;
  monitors: Monitors;
  close(): Promise<void>;
}

/**
 * Builds the rooms from the config and wires them together: the one place that knows them all.
 * `serve` builds everything; `worker` only what running job items needs: no remote browser
 * sessions, and no egress proxy until a browser item opens a page.
 */
export async function createServices(
  config: Config,
  role: 'serve',
): Promise<Built<ServingServices>>;
export async function createServices(config: Config, role: 'worker'): Promise<Built<Services>>;
export async function createServices(
  config: Config,
  role: 'serve' | 'worker',
): Promise<Built<Services>> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const keys = new KeyStore(database.db);
  const ledger = new LedgerStore(database.db);
  const httpEngine = new HttpEngine({
    policy: config.network,
    timeoutMs: config.fetchTimeoutMs,
    maxBytes: config.maxPageBytes,
    maxRedirects: 10,
  });
  const content = pageContentThreads(config.contentWorkers, config.convertTimeoutMs, {
    concurrency: config.ocrConcurrency,
    pageTimeoutMs: config.ocrTimeoutMs,
    budgetMs: config.ocrBudgetMs,
    maxPixels: config.ocrMaxPixels,
  });
  const egressLimits = {
    maxResponseBytes: config.maxPageBytes,
    maxLaneBytes: config.browser.maxLoadBytes,
  };
  // Serving, one egress proxy serves every browser (sessions and the scraping pools); it applies
  // the same SSRF policy as fetches. A worker's browser engine starts its own when it needs it.
  const egress =
    role === 'serve'
      ? await startEgressProxy(config.network, config.proxyUrls, egressLimits)
      : undefined;
  const sessions =
    egress &&
    new SessionManager({
      config: config.sessions,
      chromium: config.chromium,
      firefox: config.firefox,
      publicUrl: config.publicUrl,
      dataDir: config.dataDir,
      store: new SessionStore(database.db),
      ledger,
      profiles: new ProfileStore(database.db),
      proxyUrl: egress.url,
      upstreamProxyUrl: egress.routeUrl('*'),
    });
  const browser = await BrowserEngine.start({
    ...config.browser,
    chromium: config.chromium,
    firefox: config.firefox,
    policy: config.network,
    navigationTimeoutMs: config.fetchTimeoutMs,
    proxy: egress,
    upstreams: config.proxyUrls,
    egressLimits,
  });
  const search = createSearchProviders(config.search, config.llm, {
    fetchers: { plain: httpSerpFetcher(httpEngine), stealth: stealthSerpFetcher(browser) },
  });
  const artifacts = new LocalArtifactStore({
    dir: join(config.dataDir, 'files'),
    publicUrl: config.publicUrl,
    ttlMs: config.browser.artifactTtlHours * 3_600_000,
  });
  const cache = new PageCache({
    db: database.db,
    dir: join(config.dataDir, 'cache'),
    maxBytes: config.cache.maxBytes,
    ttlMs: config.cache.ttlSeconds * 1000,
    shared: config.cache.shared,
  });
  const snapshots = new SnapshotStore(database.db, config.cache.snapshotRetentionDays * 86_400_000);
  // Held after the last step that can fail, so a failed start holds nothing: threads for what
  // callers supply (schemas, path patterns), started on first use, ended with this service.
  const releaseSchemaWorkers = holdSchemaWorkers();
  const releasePathMatcher = holdPathMatcher();
  const services: Services = {
    config,
    httpEngine,
    content,
    search,
    browser,
    artifacts,
    cache,
    snapshots,
    politeness: crawlPoliteness(config.crawlHostConcurrency),
  };
  const jobs = new Jobs(database, config);
  const monitors = new Monitors(database, jobs, config.monitors);
  // Gauges are read by /metrics, which only a serving process answers.
  const unwatch = sessions
    ? watch({
        browserPools: () => browser.stats(),
        sessions: () => sessions.listPublic(),
        jobItems: () => jobs.store.itemCounts(),
        conversion: () => content.stats(),
      })
    : () => undefined;
  const offered: Services | ServingServices = sessions ? { ...services, sessions } : services;
  return {
    services: offered,
    database,
    keys,
    ledger,
    jobs,
    monitors,
    async close() {
      unwatch();
      await closeInSteps(
        [
          // Monitors before jobs: no check starts on a closing queue.
          ['monitors', () => monitors.close()],
          // Then jobs: running items are handed back before the engines they use go away.
          ['jobs', () => jobs.close()],
          ['browsers', () => Promise.allSettled([sessions?.shutdown(), browser.close()])],
          ['egress proxy', async () => egress?.close()],
          [
            'engines',
            () =>
              Promise.allSettled([
                httpEngine.close(),
                content.close(),
                releaseSchemaWorkers(),
                releasePathMatcher(),
                artifacts.close(),
                cache.close(),
              ]),
          ],
          ['database', () => database.close()],
        ],
        warnLateStep,
      );
    },
  };
}

export interface StartOptions extends AppOptions {
  /** false: the app only answers injected requests (the embedded MCP server); address is the public URL. */
  listen?: boolean;
  /**
   * false: no monitor checks are started or ended by this process, for a one-off command whose
   * process ends before a check could; true unless given.
   */
  scheduled?: boolean;
}

export async function startServer(config: Config, opts: StartOptions = {}): Promise<Server> {
  const timer = startTimer();
  const built = await createServices(config, 'serve');
  timer.lap('services');
  for (const [i, key] of config.apiKeys.entries()) await built.keys.ensure(key, `env-${i + 1}`);
  let createdKey: string | undefined;
  if ((await built.keys.count()) === 0) createdKey = (await built.keys.create('default')).key;

  const app = await buildApp(
    {
      services: built.services,
      keys: built.keys,
      ledger: built.ledger,
      jobs: built.jobs,
      monitors: built.monitors,
    },
    opts,
  );
  timer.lap('app');
  await built.services.sessions.start(app.log);
  timer.lap('sessions');
  await built.jobs.start(
    app.log.child({ room: 'jobs' }),
    config.runWorker ? built.services : undefined,
  );
  if (opts.scheduled !== false) built.monitors.start(app.log.child({ room: 'monitors' }));
  timer.lap('jobs');
  let address: string;
  try {
    if (opts.listen === false) {
      await app.ready();
      address = config.publicUrl;
    } else {
      address = await app.listen({ port: config.port, host: config.host });
    }
  } catch (err) {
    // A port already taken must not leave browsers, sessions and job loops running behind the error.
    await app.close();
    await built.close();
    throw err;
  }
  timer.lap('listen');
  const connections = trackConnections(app.server);
  let closed = false;
  return {
    app,
    address,
    createdKey,
    startupMs: timer.steps(),
    ...built,
    async close() {
      if (closed) return;
      closed = true;
      // Connections carrying no request go at once; past the grace, those still open are cut
      // too: a server going on to close what its routes use must not keep answering on them.
      const closing = app.close();
      connections.cutIdle();
      await closeInSteps([['HTTP server', () => closing]], (name, graceMs) => {
        warnLateStep(name, graceMs);
        connections.cutAll();
      });
      await built.close();
    },
  };
}
