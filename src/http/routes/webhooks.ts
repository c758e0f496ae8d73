import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteDeps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { ErrorResponse } from '../schemas/common.ts';
import { JobIdParams, JobQuery, jobPageParams } from '../schemas/jobs.ts';
import { WebhookEvents, WebhookSecretCreated } from '../schemas/webhooks.ts';
import { jobUrl } from './jobs-start.ts';

/** The key's signing secret, and what became of each job's webhook deliveries. */
export const webhookRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/v1/webhooks/secret',
    {
      schema: {
        tags: ['webhooks'],
        summary:
          'Make a new webhook signing secret for this key (the old one stops signing at once); shown only in this answer',
        response: { 200: WebhookSecretCreated, 401: ErrorResponse },
      },
    },
    async (request) => {
      const { secret, createdAt } = await deps.jobs.webhookSecrets.rotate(request.user.userId);
      return { success: true as const, secret, createdAt: new Date(createdAt).toISOString() };
    },
  );

  app.get(
    '/v1/scrape/async/job/:id/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        summary: "A job's webhook events, oldest first, each with its delivery attempts",
        params: JobIdParams,
        querystring: JobQuery,
        response: {
          200: WebhookEvents,
          400: ErrorResponse,
          401: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request) => {
      const { offset, limit } = jobPageParams(request.query);
      const found = await deps.jobs.webhookEvents(
        request.user.userId,
        request.params.id,
        offset,
        limit,
      );
      if (!found) throw notFound('job');
      const nextOffset = offset + limit;
      return {
        success: true as const,
        id: found.job.id,
        total: found.total,
        events: found.events,
        ...(nextOffset < found.total
          ? { next: `${jobUrl(found.job.id)}/webhooks?offset=${nextOffset}&limit=${limit}` }
          : {}),
      };
    },
  );
};
