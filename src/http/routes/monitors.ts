import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { microsToUsd } from '../../billing/index.ts';
import type { Config } from '../../config.ts';
import {
  type CheckJob,
  type CheckView,
  checkSchedule,
  MonitorLimitError,
  type MonitorView,
  ScheduleError,
} from '../../monitors/index.ts';
import {
  batchInput,
  batchItems,
  type CrawlPageInput,
  crawlSettings,
  InputError,
  pageScrapeOptions,
} from '../../ops/index.ts';
import { MONITOR_EVENTS, type WebhookTarget } from '../../webhooks/index.ts';
import type { RouteDeps } from '../deps.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { ErrorResponse } from '../schemas/common.ts';
import { intParam } from '../schemas/jobs.ts';
import {
  MONITOR_PAGE_MAX,
  MonitorAnswer,
  MonitorBody,
  MonitorChecks,
  MonitorDeleted,
  MonitorIdParams,
  MonitorList,
  MonitorPageQuery,
  MonitorPatchBody,
} from '../schemas/monitors.ts';
import { webhookTarget } from '../webhook-target.ts';
import { jobUrl } from './jobs-start.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

type Formats = NonNullable<MonitorBody['formats']>;

/**
 * The formats each check asks for: the caller's (markdown by default) with change tracking added
 * (git-diff unless the caller gave its modes), tagged with the monitor, so its history is its own
 * and not the key's other scrapes of the same URL.
 */
function trackedFormats(given: Formats | undefined, monitorId: string): Formats {
  const formats: Formats = [...(given ?? ['markdown'])];
  const tag = `monitor:${monitorId}`;
  const at = formats.findIndex((f) => typeof f === 'object');
  if (at < 0) return [...formats, { type: 'changeTracking', modes: ['git-diff'], tag }];
  formats[at] = { ...(formats[at] as object), type: 'changeTracking', tag };
  return formats;
}

/**
 * The job a monitor's checks run, from its body: its URLs, or its crawl, fetched fresh each time.
 * Its schemas and patterns are checked in `caller`'s turn.
 */
async function checkJob(
  body: MonitorBody,
  id: string,
  config: Config,
  caller: string,
): Promise<CheckJob> {
  const maxUrls = config.monitors.maxUrls;
  if ((body.urls === undefined) === (body.crawl === undefined))
    throw badRequest('urls', 'give either urls or crawl');
  const { urls, crawl, schedule, webhook, notify, paused, name, ...page } = body;
  // A monitor compares what the page says now: never a cached copy.
  const options = { ...page, formats: trackedFormats(page.formats, id), maxAge: 0 };
  if (urls) {
    const input = await batchInput({ ...options, urls }, config, caller, {
      max: maxUrls,
      what: 'monitor (WEBDATA_MONITOR_MAX_URLS)',
    });
    return { type: 'scrape-batch', inputs: batchItems(input) };
  }
  const limit = crawl!.limit ?? maxUrls;
  if (limit > maxUrls)
    throw badRequest(
      'crawl.limit',
      `at most ${maxUrls} pages per monitor (WEBDATA_MONITOR_MAX_URLS)`,
    );
  pageScrapeOptions(options, '');
  let settings: Awaited<ReturnType<typeof crawlSettings>>;
  try {
    settings = await crawlSettings({ ...crawl!, ...options, limit }, config, caller);
  } catch (err) {
    // The crawl's own fields are named as the caller wrote them: inside `crawl`.
    if (err instanceof InputError && err.field.split(/[.[]/)[0]! in crawl!)
      throw badRequest(`crawl.${err.field}`, err.message);
    throw err;
  }
  const start: CrawlPageInput = {
    url: settings.settings.url,
    depth: 0,
    foundOn: null,
    crawl: settings.settings,
  };
  return { type: 'crawl', inputs: [start], keys: [settings.startKey], maxItems: limit };
}

function schedule(given: MonitorBody['schedule'], config: Config) {
  try {
    return checkSchedule(given, config.monitors.minIntervalSeconds);
  } catch (err) {
    if (err instanceof ScheduleError) throw badRequest(err.field, err.message);
    throw err;
  }
}

/** A monitor's webhook: the job webhook's checks, delivering the monitor events only. */
async function monitorWebhook(
  given: MonitorBody['webhook'],
  config: Config,
): Promise<WebhookTarget | undefined> {
  const target = await webhookTarget(given, config);
  return target && { ...target, events: [...MONITOR_EVENTS] };
}

/** One monitor's answer, or a 404 when the caller has none by that id. */
function oneMonitor(m: MonitorView | undefined) {
  if (!m) throw notFound('monitor');
  return { success: true as const, monitor: monitorAnswer(m) };
}

function monitorAnswer(m: MonitorView) {
  return {
    id: m.id,
    ...(m.name !== undefined ? { name: m.name } : {}),
    ...m.request,
    schedule: m.schedule,
    notify: m.notify,
    ...(m.webhook ? { webhook: m.webhook } : {}),
    paused: m.paused,
    status: m.status,
    nextRunAt: iso(m.nextRunAt),
    runningCheck: m.runningCheck,
    checks: m.checks,
    lastCheckAt: isoOrNull(m.lastCheckAt),
    lastStatus: m.lastStatus,
    lastError: m.lastError,
    consecutiveFailures: m.consecutiveFailures,
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
  };
}

function checkAnswer(c: CheckView) {
  return {
    id: c.id,
    job: jobUrl(c.id),
    scheduledAt: iso(c.scheduledAt),
    startedAt: iso(c.startedAt),
    finishedAt: isoOrNull(c.finishedAt),
    status: c.status,
    changed: c.changed,
    cost: microsToUsd(c.costMicros),
    error: c.error,
    pages: c.pages,
  };
}

function pageParams(query: { page?: string; limit?: string }) {
  return {
    page: intParam(query.page, 'page', 1, 1, Number.MAX_SAFE_INTEGER),
    limit: intParam(query.limit, 'limit', 20, 1, MONITOR_PAGE_MAX),
  };
}

/** Monitors: pages checked on a schedule, each check a job, changes sent to a webhook. Another key's monitor is 404. */
export const monitorRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const { config } = deps.services;
  const missing = { 401: ErrorResponse, 404: ErrorResponse };

  app.post(
    '/v1/monitors',
    {
      schema: {
        tags: ['monitors'],
        summary:
          'Watch pages (or a crawl) on a schedule; each check compares them with the last one',
        body: MonitorBody,
        response: {
          201: MonitorAnswer,
          400: ErrorResponse,
          401: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { userId } = request.user;
      const body = request.body;
      const id = randomUUID();
      const when = schedule(body.schedule, config);
      const job = await checkJob(body, id, config, userId);
      const webhook = await monitorWebhook(body.webhook, config);
      const { webhook: _hook, schedule: _schedule, notify, paused, name, ...asked } = body;
      const webhookSecret = webhook ? await deps.jobs.webhookSecrets.ensure(userId) : undefined;
      try {
        const monitor = await deps.monitors.create({
          id,
          userId,
          ...(name !== undefined ? { name } : {}),
          request: asked,
          job,
          schedule: when,
          notify: notify ?? 'change',
          ...(webhook ? { webhook } : {}),
          paused: paused ?? false,
        });
        return reply.code(201).send({
          success: true as const,
          monitor: monitorAnswer(monitor),
          ...(webhookSecret ? { webhookSecret } : {}),
        });
      } catch (err) {
        if (err instanceof MonitorLimitError) throw new ApiError(409, err.message);
        throw err;
      }
    },
  );

  app.get(
    '/v1/monitors',
    {
      schema: {
        tags: ['monitors'],
        summary: "The caller's monitors, newest first",
        querystring: MonitorPageQuery,
        response: { 200: MonitorList, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const { page, limit } = pageParams(request.query);
      const { monitors, total } = await deps.monitors.store.list(request.user.userId, page, limit);
      return { success: true as const, monitors: monitors.map(monitorAnswer), total, page, limit };
    },
  );

  app.get(
    '/v1/monitors/:id',
    {
      schema: {
        tags: ['monitors'],
        summary: 'A monitor: its request, schedule, and state (paused, failing, last error)',
        params: MonitorIdParams,
        response: { 200: MonitorAnswer, ...missing },
      },
    },
    async (request) => {
      return oneMonitor(await deps.monitors.store.get(request.user.userId, request.params.id));
    },
  );

  app.patch(
    '/v1/monitors/:id',
    {
      schema: {
        tags: ['monitors'],
        summary: 'Pause or resume a monitor, or change its name, schedule, notify or webhook',
        params: MonitorIdParams,
        body: MonitorPatchBody,
        response: { 200: MonitorAnswer, 400: ErrorResponse, ...missing },
      },
    },
    async (request) => {
      const { webhook, schedule: given, ...rest } = request.body;
      const monitor = await deps.monitors.update(request.user.userId, request.params.id, {
        ...rest,
        ...(given ? { schedule: schedule(given, config) } : {}),
        ...(webhook === null
          ? { webhook: null }
          : webhook
            ? { webhook: await monitorWebhook(webhook, config) }
            : {}),
      });
      return oneMonitor(monitor);
    },
  );

  app.delete(
    '/v1/monitors/:id',
    {
      schema: {
        tags: ['monitors'],
        summary: 'Delete a monitor and its checks; a running check is cancelled',
        params: MonitorIdParams,
        response: { 200: MonitorDeleted, ...missing },
      },
    },
    async (request) => {
      if (!(await deps.monitors.delete(request.user.userId, request.params.id)))
        throw notFound('monitor');
      return { success: true as const, id: request.params.id };
    },
  );

  app.get(
    '/v1/monitors/:id/checks',
    {
      schema: {
        tags: ['monitors'],
        summary: "A monitor's checks, newest first: when, each page's change status, cost",
        params: MonitorIdParams,
        querystring: MonitorPageQuery,
        response: { 200: MonitorChecks, 400: ErrorResponse, ...missing },
      },
    },
    async (request) => {
      const { page, limit } = pageParams(request.query);
      const found = await deps.monitors.checks(request.user.userId, request.params.id, page, limit);
      if (!found) throw notFound('monitor');
      return {
        success: true as const,
        checks: found.checks.map(checkAnswer),
        total: found.total,
        page,
        limit,
      };
    },
  );
};
