import { bool, int } from './kinds.ts';
import { DAY_S, S } from './units.ts';

/** Background work: async jobs and their items, map, crawl politeness, webhooks and monitors. */
export const JOB_SETTINGS = {
  jobTtlSeconds: int('WEBDATA_JOB_TTL_SECONDS', {
    group: 'Jobs, map, crawl and webhooks',
    default: DAY_S,
    min: 1,
    max: 365 * DAY_S,
    doc: 'how long an async job and its results live after creation (then 404, then deleted)',
  }),
  jobSweepSeconds: int('WEBDATA_JOB_SWEEP_SECONDS', {
    group: 'Jobs, map, crawl and webhooks',
    default: 60,
    min: 1,
    max: DAY_S,
    doc: 'how often expired jobs are deleted from the store',
  }),
  jobConcurrency: int('WEBDATA_JOB_CONCURRENCY', {
    group: 'Jobs, map, crawl and webhooks',
    default: 8,
    min: 1,
    max: 256,
    doc: 'job items one process (`serve` or `worker`) runs at once',
  }),
  jobSlotsPerKey: int('WEBDATA_JOB_SLOTS_PER_KEY', {
    group: 'Jobs, map, crawl and webhooks',
    // Below the concurrency: a crawl item waiting out its own host delay holds its slot.
    default: (earlier) =>
      Math.max(1, Math.ceil((Number(earlier('WEBDATA_JOB_CONCURRENCY')) * 3) / 4)),
    shownDefault: 'three quarters of `WEBDATA_JOB_CONCURRENCY`',
    min: 1,
    max: 256,
    doc: "embedded queue: job items of one API key one process runs at once. Users' items start in turn whatever it is; below the concurrency, slots stay free for other keys' first items",
  }),
  jobHeartbeatSeconds: int('WEBDATA_JOB_HEARTBEAT_SECONDS', {
    group: 'Jobs, map, crawl and webhooks',
    default: 30,
    min: 10,
    max: 3600,
    doc: 'Postgres only: a worker silent this long has its items handed to another',
  }),
  runWorker: bool('WEBDATA_WORKER', {
    group: 'Jobs, map, crawl and webhooks',
    default: true,
    doc: 'whether `webdata serve` also runs job items (`false`: only `webdata worker` processes do; Postgres only)',
  }),
  mapTimeoutMs: int('WEBDATA_MAP_TIMEOUT_MS', {
    group: 'Jobs, map, crawl and webhooks',
    default: 30 * S,
    min: S,
    max: 600 * S,
    doc: 'deadline of one `/v1/map`; what was found by then is the answer',
  }),
  mapMaxRequests: int('WEBDATA_MAP_MAX_REQUESTS', {
    group: 'Jobs, map, crawl and webhooks',
    default: 200,
    min: 5,
    max: 10_000,
    doc: 'outbound requests one `/v1/map` may make (robots.txt, sitemaps, feeds, pages)',
  }),
  crawlHostConcurrency: int('WEBDATA_CRAWL_HOST_CONCURRENCY', {
    group: 'Jobs, map, crawl and webhooks',
    default: 4,
    min: 1,
    max: 64,
    doc: "requests one process's crawls have in flight to one host at once, across all users: the politeness ceiling, shared between users in turn (each user's `delayMs` paces only its own requests)",
  }),
  webhookTimeoutMs: int('WEBDATA_WEBHOOK_TIMEOUT_MS', {
    group: 'Jobs, map, crawl and webhooks',
    default: 10 * S,
    min: 100,
    max: 120 * S,
    doc: 'deadline of one webhook delivery attempt',
  }),
  webhookConcurrency: int('WEBDATA_WEBHOOK_CONCURRENCY', {
    group: 'Jobs, map, crawl and webhooks',
    default: 16,
    min: 1,
    max: 1024,
    doc: 'webhook deliveries one process has in flight at once, across all users',
  }),
  webhookDeliveriesPerKey: int('WEBDATA_WEBHOOK_DELIVERIES_PER_KEY', {
    group: 'Jobs, map, crawl and webhooks',
    default: (earlier) =>
      Math.max(1, Math.ceil(Number(earlier('WEBDATA_WEBHOOK_CONCURRENCY')) / 2)),
    shownDefault: 'half of `WEBDATA_WEBHOOK_CONCURRENCY`',
    min: 1,
    max: 1024,
    doc: "webhook deliveries of one API key in flight at once in one process, so a receiver that never answers holds no more; users' due events are taken in turn",
  }),
  webhookMaxAttempts: int('WEBDATA_WEBHOOK_MAX_ATTEMPTS', {
    group: 'Jobs, map, crawl and webhooks',
    default: 8,
    min: 1,
    max: 50,
    doc: 'delivery attempts before a webhook event is given up as `failed`',
  }),
  monitors: {
    minIntervalSeconds: int('WEBDATA_MONITOR_MIN_INTERVAL_SECONDS', {
      group: 'Jobs, map, crawl and webhooks',
      default: 60,
      min: 1,
      max: DAY_S,
      doc: 'shortest time between two checks of a monitor: a smaller `intervalSeconds`, or a cron firing more often, is a 400. See [monitors.md](monitors.md)',
    }),
    maxUrls: int('WEBDATA_MONITOR_MAX_URLS', {
      group: 'Jobs, map, crawl and webhooks',
      default: 100,
      min: 1,
      max: 10_000,
      doc: "most pages one monitor checks: its `urls`, or its crawl's `limit`",
    }),
    perKey: int('WEBDATA_MONITORS_PER_KEY', {
      group: 'Jobs, map, crawl and webhooks',
      default: 1000,
      min: 1,
      max: 1_000_000,
      doc: 'most monitors one API key may have',
    }),
    checksKept: int('WEBDATA_MONITOR_CHECKS_KEPT', {
      group: 'Jobs, map, crawl and webhooks',
      default: 100,
      min: 1,
      max: 100_000,
      doc: "a monitor's latest checks listed by `GET /api/v1/monitors/:id/checks`; older ones are deleted",
    }),
    pollMs: int('WEBDATA_MONITOR_POLL_MS', {
      group: 'Jobs, map, crawl and webhooks',
      default: 500,
      min: 50,
      max: 60 * S,
      doc: 'how often each process looks for monitors due a check and for checks that ended: the most a check starts late, with a free process',
    }),
  },
};
