import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';

const HealthResponse = Type.Object({ status: Type.Literal('ok'), uptimeSeconds: Type.Number() });

export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/health',
    {
      config: { public: true, servedUnderPressure: true },
      schema: { tags: ['meta'], response: { 200: HealthResponse } },
    },
    async () => ({
      status: 'ok' as const,
      uptimeSeconds: Math.round(process.uptime()),
    }),
  );
};
