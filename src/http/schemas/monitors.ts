import { type Static, Type } from 'typebox';
import { Cost, Timestamp } from '../../contract/index.ts';
import { scrapeFields } from '../../ops/index.ts';
import { CrawlBody } from './crawl.ts';
import { WebhookBody } from './webhooks.ts';

/** Longest cron expression read: five or six fields with lists fit well inside it. */
const MAX_CRON_CHARS = 120;
/** Largest page of monitors or checks asked for at once. */
export const MONITOR_PAGE_MAX = 100;

const strict = { additionalProperties: false } as const;

/** The crawl body's fields a monitor's crawl takes as they are (its `limit` is capped anew). */
const CRAWL_FIELDS = [
  'url',
  'maxDepth',
  'includePaths',
  'excludePaths',
  'includeSubdomains',
  'ignoreQueryParameters',
  'stayUnderStartPath',
  'sitemap',
  'ignoreRobotsTxt',
  'delayMs',
] as const;
const crawlFields = Object.fromEntries(
  CRAWL_FIELDS.map((name) => [name, CrawlBody.properties[name]]),
) as Pick<typeof CrawlBody.properties, (typeof CRAWL_FIELDS)[number]>;

const MonitorCrawl = Type.Object(
  {
    ...crawlFields,
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Most pages each check fetches; at most WEBDATA_MONITOR_MAX_URLS, its default',
      }),
    ),
  },
  { ...strict, description: 'Check the pages a crawl from this URL finds, instead of urls' },
);

export const MonitorSchedule = Type.Object(
  {
    cron: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_CRON_CHARS,
        description: 'Cron expression (five fields, or six with seconds first)',
      }),
    ),
    timezone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'IANA time zone the cron is read in; default UTC',
      }),
    ),
    intervalSeconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 366 * 86_400,
        description: 'Seconds between checks; at least WEBDATA_MONITOR_MIN_INTERVAL_SECONDS',
      }),
    ),
  },
  { ...strict, description: 'Either cron (with timezone) or intervalSeconds' },
);

const Notify = Type.Union([Type.Literal('change'), Type.Literal('always')], {
  description:
    'change (default): a webhook only for a check that found a change; always: one for every check',
});

const MonitorWebhook = Type.Object(
  { url: WebhookBody.properties.url, headers: WebhookBody.properties.headers },
  {
    ...strict,
    description: 'Receives monitor.change (and with notify always, monitor.check) signed events',
  },
);

/** How each check reads its pages: a scrape's content fields. */
const pageFields = {
  formats: scrapeFields.formats,
  includeTags: scrapeFields.includeTags,
  excludeTags: scrapeFields.excludeTags,
  method: scrapeFields.method,
  onlyMainContent: scrapeFields.onlyMainContent,
  extractMetadata: scrapeFields.extractMetadata,
  pdfStrategy: scrapeFields.pdfStrategy,
  proxy: scrapeFields.proxy,
};

const Name = Type.String({ minLength: 1, maxLength: 200 });

export const MonitorBody = Type.Object(
  {
    name: Type.Optional(Name),
    urls: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        description: 'Pages to check; at most WEBDATA_MONITOR_MAX_URLS',
      }),
    ),
    crawl: Type.Optional(MonitorCrawl),
    schedule: MonitorSchedule,
    ...pageFields,
    webhook: Type.Optional(MonitorWebhook),
    notify: Type.Optional(Notify),
    paused: Type.Optional(Type.Boolean({ description: 'Store it paused; default false' })),
  },
  strict,
);
export type MonitorBody = Static<typeof MonitorBody>;

export const MonitorPatchBody = Type.Object(
  {
    name: Type.Optional(Name),
    schedule: Type.Optional(MonitorSchedule),
    notify: Type.Optional(Notify),
    webhook: Type.Optional(Type.Union([MonitorWebhook, Type.Null()])),
    paused: Type.Optional(Type.Boolean()),
  },
  { ...strict, minProperties: 1 },
);
export type MonitorPatchBody = Static<typeof MonitorPatchBody>;

export const MonitorIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const MonitorPageQuery = Type.Object(
  { page: Type.Optional(Type.String()), limit: Type.Optional(Type.String()) },
  strict,
);

const TimeOrNull = Type.Union([Timestamp, Type.Null()]);

export const Monitor = Type.Object({
  id: Type.String(),
  name: Type.Optional(Type.String()),
  urls: Type.Optional(Type.Array(Type.String())),
  crawl: Type.Optional(MonitorCrawl),
  schedule: MonitorSchedule,
  ...pageFields,
  notify: Notify,
  webhook: Type.Optional(Type.Object({ url: Type.String() })),
  paused: Type.Boolean(),
  status: Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('failing')], {
    description: 'paused; failing while its last check failed; active otherwise',
  }),
  nextRunAt: Timestamp,
  runningCheck: Type.Union([Type.String(), Type.Null()], {
    description: 'The check (a job id) running now',
  }),
  checks: Type.Integer({ description: 'Checks ended' }),
  lastCheckAt: TimeOrNull,
  lastStatus: Type.Union([Type.String(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  consecutiveFailures: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const MonitorAnswer = Type.Object({
  success: Type.Literal(true),
  monitor: Monitor,
  webhookSecret: Type.Optional(
    Type.String({
      description:
        "The key's webhook signing secret, made by this request because it had none; shown only here",
    }),
  ),
});

export const MonitorList = Type.Object({
  success: Type.Literal(true),
  monitors: Type.Array(Monitor),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export const MonitorDeleted = Type.Object({ success: Type.Literal(true), id: Type.String() });

const CheckPage = Type.Object({
  url: Type.String(),
  status: Type.String({
    description:
      'new, same, changed, removed (404 or 410 now); failed when it could not be fetched',
  }),
  previousScrapeAt: Type.Optional(TimeOrNull),
  diff: Type.Optional(Type.String({ description: 'Unified diff of the main-content markdown' })),
  error: Type.Optional(Type.String()),
  cost: Cost,
});

export const MonitorChecks = Type.Object({
  success: Type.Literal(true),
  checks: Type.Array(
    Type.Object({
      id: Type.String({ description: "The check's job id" }),
      job: Type.String({ description: "Relative URL of the check's job (results, cancel)" }),
      scheduledAt: Timestamp,
      startedAt: Timestamp,
      finishedAt: TimeOrNull,
      status: Type.Union([
        Type.Literal('running'),
        Type.Literal('completed'),
        Type.Literal('failed'),
        Type.Literal('cancelled'),
      ]),
      changed: Type.Integer({
        description: 'Pages changed or removed, or new after the first check',
      }),
      cost: Cost,
      error: Type.Union([Type.String(), Type.Null()]),
      pages: Type.Array(CheckPage),
    }),
  ),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});
