import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteDeps } from '../deps.ts';
import { extractInput } from '../inputs.ts';
import { ErrorResponse } from '../schemas/common.ts';
import { ExtractBody } from '../schemas/extract.ts';
import { ASYNC_BATCH_MAX_URLS, JobCreated } from '../schemas/jobs.ts';
import { startJob } from './jobs-start.ts';

export const extractRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/v1/extract',
    {
      schema: {
        tags: ['extract'],
        summary: `One JSON object, valid against your schema, from up to ${ASYNC_BATCH_MAX_URLS} pages together; runs as a job`,
        body: ExtractBody,
        response: { 202: JobCreated, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const input = await extractInput(request.body, deps.services.config, ASYNC_BATCH_MAX_URLS);
      return reply
        .code(202)
        .send(await startJob(deps, request.user.userId, 'extract', [input], request.body.webhook));
    },
  );
};
