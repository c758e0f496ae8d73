import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { extractInput } from '../../ops/index.ts';
import type { RouteDeps } from '../deps.ts';
import { ExtractBody } from '../schemas/extract.ts';
import { ASYNC_BATCH_MAX_URLS } from '../schemas/jobs.ts';
import { jobStartRoute } from './jobs-start.ts';

export const extractRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  jobStartRoute(app, deps, {
    url: '/v1/extract',
    tags: ['extract'],
    summary: `One JSON object, valid against your schema, from up to ${ASYNC_BATCH_MAX_URLS} pages together; runs as a job`,
    body: ExtractBody,
    type: 'extract',
    items: async (body, caller) => [
      await extractInput(body, deps.services.config, caller, ASYNC_BATCH_MAX_URLS),
    ],
  });
};
