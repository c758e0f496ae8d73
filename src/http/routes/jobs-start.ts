import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CreateOptions, JobType } from '../../jobs/index.ts';
import { batchItems, type SequenceInput, searchItems } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { batchInput, scrapeInput, searchInput, sequenceInput, webhookTarget } from '../inputs.ts';
import { ErrorResponse, requireProxy } from '../schemas/common.ts';
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

/** The async start endpoints: validate as the sync twin does, split into items, store and queue. */
export const jobStartRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/v1/scrape/async/single',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Fetch one URL in the background',
        body: AsyncSingleBody,
        response: responses,
      },
    },
    async (request, reply) => {
      const { webhook, ...body } = request.body;
      const input = await scrapeInput(body, deps.services.config);
      return reply
        .code(202)
        .send(await startJob(deps, request.user.userId, 'scrape-single', [input], webhook));
    },
  );

  app.post(
    '/v1/scrape/async/batch',
    {
      schema: {
        tags: ['jobs'],
        summary: `Fetch up to ${ASYNC_BATCH_MAX_URLS} URLs in the background`,
        body: AsyncBatchBody,
        response: responses,
      },
    },
    async (request, reply) => {
      const { webhook, ...body } = request.body;
      const inputs = batchItems(
        await batchInput(body, deps.services.config, {
          max: ASYNC_BATCH_MAX_URLS,
          what: 'async batch',
        }),
      );
      return reply
        .code(202)
        .send(await startJob(deps, request.user.userId, 'scrape-batch', inputs, webhook));
    },
  );

  app.post(
    '/v1/scrape/async/sequence',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Run a browser sequence in the background',
        body: AsyncSequenceBody,
        response: responses,
      },
    },
    async (request, reply) => {
      const { webhook, ...body } = request.body;
      return reply
        .code(202)
        .send(
          await startJob(
            deps,
            request.user.userId,
            'sequence',
            [await sequenceInput(body, deps.services.config)],
            webhook,
          ),
        );
    },
  );

  app.post(
    '/v1/scrape/async/sequence/batch',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Run independent browser sequences in the background',
        body: AsyncSequenceBatchBody,
        response: responses,
      },
    },
    async (request, reply) => {
      const { webhook, ...body } = request.body;
      requireProxy(deps.services.config, body.proxy);
      // Each sequence keeps its own type and proxy; the batch's fill in where it has none.
      const inputs: SequenceInput[] = [];
      for (const [i, s] of body.sequences.entries())
        inputs.push(
          await sequenceInput(
            { ...s, type: s.type ?? body.type, proxy: s.proxy ?? body.proxy },
            deps.services.config,
            `sequences[${i}].`,
          ),
        );
      return reply
        .code(202)
        .send(await startJob(deps, request.user.userId, 'sequence-batch', inputs, webhook));
    },
  );

  app.post(
    '/v1/scrape/async/search/batch',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Run 1 to 20 searches in the background',
        body: AsyncSearchBatchBody,
        response: responses,
      },
    },
    async (request, reply) => {
      const { webhook, ...body } = request.body;
      const input = searchInput(body);
      return reply
        .code(202)
        .send(
          await startJob(deps, request.user.userId, 'search-batch', searchItems(input), webhook),
        );
    },
  );
};
