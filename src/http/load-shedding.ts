import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { countShed } from '../metrics/index.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served even when the process is over a load bound: cheap routes an operator needs then (health, metrics). */
    servedUnderPressure?: boolean;
  }
}

export interface SheddingOptions {
  maxEventLoopDelayMs: number;
  maxHeapBytes: number;
  maxRssBytes: number;
}

/** How long a shed client is asked to wait: a few samples of the load gauges (one a second). */
const RETRY_AFTER_SECONDS = 5;

/**
 * Refuses new requests with 503 and Retry-After while the event loop lags or memory is over its
 * bound, before the process collapses (V8 aborts at its heap limit; a stalled loop times every
 * request out). Requests already running go on. @fastify/under-pressure samples the load once a
 * second, so the check on each request costs a few comparisons.
 */
export const loadSheddingPlugin = fp<SheddingOptions>(async (app: FastifyInstance, opts) => {
  await app.register(underPressure, {
    maxEventLoopDelay: opts.maxEventLoopDelayMs,
    maxHeapUsedBytes: opts.maxHeapBytes,
    maxRssBytes: opts.maxRssBytes,
    pressureHandler: (request, reply, type, value) => {
      // Without a reply sent here the request goes on as usual.
      if (request.routeOptions.config.servedUnderPressure) return;
      countShed(type);
      request.log.warn({ type, value }, 'request shed: server over its load bound');
      void reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ success: false, error: `the server is overloaded (${type} over its bound); retry in ${RETRY_AFTER_SECONDS} s` });
    },
  });
});
