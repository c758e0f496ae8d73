import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { microsToUsd } from '../../billing/index.ts';
import type { JobSummary } from '../../jobs/index.ts';
import type { RouteDeps } from '../deps.ts';
import { ApiError, notFound } from '../errors.ts';
import { ErrorResponse } from '../schemas/common.ts';
import {
  AsyncJob,
  intParam,
  JOB_PAGE_MAX,
  JobCancelled,
  JobIdParams,
  JobList,
  JobListQuery,
  JobQuery,
  jobPageParams,
} from '../schemas/jobs.ts';
import { jobUrl } from './jobs-start.ts';

const iso = (ms: number) => new Date(ms).toISOString();

function summary(job: JobSummary) {
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    total: job.total,
    completed: job.completed,
    createdAt: iso(job.createdAt),
    expiresAt: iso(job.expiresAt),
  };
}

/** Polling, listing and cancelling jobs. A job that is not the caller's is 404 whatever the verb. */
export const jobRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.get(
    '/v1/scrape/async/job/:id',
    {
      schema: {
        tags: ['jobs'],
        summary: 'A job and one page of its item results, in input order',
        params: JobIdParams,
        querystring: JobQuery,
        response: { 200: AsyncJob, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const { offset, limit } = jobPageParams(request.query);
      const page = await deps.jobs.page(request.user.userId, request.params.id, offset, limit);
      if (!page) throw notFound('job');
      const { job, data } = page;
      const nextOffset = offset + limit;
      return {
        success: true as const,
        ...summary(job),
        cost: microsToUsd(job.costMicros),
        ...(job.error ? { error: job.error } : {}),
        data,
        ...(nextOffset < job.total
          ? { next: `${jobUrl(job.id)}?offset=${nextOffset}&limit=${limit}` }
          : {}),
      };
    },
  );

  app.get(
    '/v1/scrape/async/jobs',
    {
      schema: {
        tags: ['jobs'],
        summary: "The caller's jobs, newest first",
        querystring: JobListQuery,
        response: { 200: JobList, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const page = intParam(request.query.page, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
      const limit = intParam(request.query.limit, 'limit', 20, 1, JOB_PAGE_MAX);
      const { jobs, total } = await deps.jobs.list(request.user.userId, {
        page,
        limit,
        type: request.query.type,
      });
      return { jobs: jobs.map(summary), total, page, limit };
    },
  );

  app.delete(
    '/v1/scrape/async/job/:id',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Cancel a pending or processing job; 409 when it already finished',
        params: JobIdParams,
        response: { 200: JobCancelled, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (request) => {
      const outcome = await deps.jobs.cancel(request.user.userId, request.params.id);
      if (outcome.kind === 'missing') throw notFound('job');
      if (outcome.kind === 'finished') {
        throw new ApiError(
          409,
          `job is already ${outcome.job.status}; only pending or processing jobs can be cancelled`,
        );
      }
      const { job } = outcome;
      return {
        success: true as const,
        id: job.id,
        status: 'cancelled' as const,
        total: job.total,
        completed: job.completed,
      };
    },
  );
};
