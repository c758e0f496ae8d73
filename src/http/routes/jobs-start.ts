import type { FastifyPluginAsyncTypebox, Static, TSchema } from '@fastify/type-provider-typebox';
import type { CreateOptions, JobType } from '../../jobs/index.ts';
import {
  batchInput,
  batchItems,
  normaliseSearchInput,
  requireProxy,
  type SequenceInput,
  scrapeInput,
  searchItems,
  sequenceInput,
} from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { ErrorResponse } from '../schemas/common.ts';
import {
  ASYNC_BATCH_MAX_URLS,
  AsyncBatchBody,
  AsyncSearchBatchBody,
  AsyncSequenceBatchBody,
  AsyncSequenceBody,
  AsyncSingleBody,
  JobCreated,
} from '../schemas/jobs.ts';
import type { WebhookBody } from '../schemas/webhooks.ts';
import { webhookTarget } from '../webhook-target.ts';

const responses = { 202: JobCreated, 400: ErrorResponse, 401: ErrorResponse };

/** The relative URL a client polls; the spec says relative, so it holds behind any proxy or public URL. */
export function jobUrl(id: string): string {
  return `/api/v1/scrape/async/job/${id}`;
}

/**
 * Stores and queues a job for a start request, with its webhook checked first; answers the
 * job-created body (with the new signing secret when this request made it).
 */
export async function startJob(
  deps: RouteDeps,
  userId: string,
  type: JobType,
  inputs: unknown[],
  webhook: WebhookBody | undefined,
  opts: Omit<CreateOptions, 'webhook'> = {},
) {
  const target = await webhookTarget(webhook, deps.services.config);
  const { job, webhookSecret } = await deps.jobs.create(userId, type, inputs, {
    ...opts,
    ...(target ? { webhook: target } : {}),
  });
  return {
    success: true as const,
    id: job.id,
    url: jobUrl(job.id),
    ...(webhookSecret ? { webhookSecret } : {}),
  };
}

/**
 * A route that starts a job, declared once: its body is the sync twin's plus a webhook, `items`
 * reads it into the job's items with the twin's checks (a 400 naming the field), and the answer
 * is 202 with the job to poll.
 */
export interface JobStartRoute<B extends TSchema> {
  url: string;
  summary: string;
  tags?: string[];
  body: B;
  type: JobType;
  /** `caller`, the key that sent the request, takes the turns of checks run on shared workers. */
  items(body: Omit<Static<B>, 'webhook'>, caller: string): JobItems | Promise<JobItems>;
}

/** A job's items, with the options some starts add (a crawl's dedupe keys and page limit). */
export type JobItems = unknown[] | { inputs: unknown[]; opts: Omit<CreateOptions, 'webhook'> };

export function jobStartRoute<B extends TSchema>(
  app: Parameters<FastifyPluginAsyncTypebox<RouteDeps>>[0],
  deps: RouteDeps,
  route: JobStartRoute<B>,
): void {
  app.post(
    route.url,
    {
      schema: {
        tags: route.tags ?? ['jobs'],
        summary: route.summary,
        body: route.body,
        response: responses,
      },
    },
    async (request, reply) => {
      const { webhook, ...body } = request.body as Static<B> & { webhook?: WebhookBody };
      const items = await route.items(body as Omit<Static<B>, 'webhook'>, request.user.userId);
      const { inputs, opts } = Array.isArray(items) ? { inputs: items, opts: {} } : items;
      return reply
        .code(202)
        .send(await startJob(deps, request.user.userId, route.type, inputs, webhook, opts));
    },
  );
}

/** The async start endpoints: validate as the sync twin does, split into items, store and queue. */
export const jobStartRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const { config } = deps.services;
  jobStartRoute(app, deps, {
    url: '/v1/scrape/async/single',
    summary: 'Fetch one URL in the background',
    body: AsyncSingleBody,
    type: 'scrape-single',
    items: async (body, caller) => [await scrapeInput(body, config, caller)],
  });

  jobStartRoute(app, deps, {
    url: '/v1/scrape/async/batch',
    summary: `Fetch up to ${ASYNC_BATCH_MAX_URLS} URLs in the background`,
    body: AsyncBatchBody,
    type: 'scrape-batch',
    items: async (body, caller) =>
      batchItems(
        await batchInput(body, config, caller, {
          max: ASYNC_BATCH_MAX_URLS,
          what: 'async batch',
        }),
      ),
  });

  jobStartRoute(app, deps, {
    url: '/v1/scrape/async/sequence',
    summary: 'Run a browser sequence in the background',
    body: AsyncSequenceBody,
    type: 'sequence',
    items: async (body, caller) => [await sequenceInput(body, config, caller)],
  });

  jobStartRoute(app, deps, {
    url: '/v1/scrape/async/sequence/batch',
    summary: 'Run independent browser sequences in the background',
    body: AsyncSequenceBatchBody,
    type: 'sequence-batch',
    items: async (body, caller) => {
      requireProxy(config, body.proxy);
      // Each sequence keeps its own type and proxy; the batch's fill in where it has none.
      const inputs: SequenceInput[] = [];
      for (const [i, s] of body.sequences.entries())
        inputs.push(
          await sequenceInput(
            { ...s, type: s.type ?? body.type, proxy: s.proxy ?? body.proxy },
            config,
            caller,
            `sequences[${i}].`,
          ),
        );
      return inputs;
    },
  });

  jobStartRoute(app, deps, {
    url: '/v1/scrape/async/search/batch',
    summary: 'Run 1 to 20 searches in the background',
    body: AsyncSearchBatchBody,
    type: 'search-batch',
    items: (body) => searchItems(normaliseSearchInput(body)),
  });
};
