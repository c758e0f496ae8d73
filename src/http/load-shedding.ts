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
 * How long after the server is ready event-loop delay is not held against a request. Start-up's
 * own synchronous work (module loading, migrations, worker pools) lands in the first sample of the
 * gauge, so without it the first requests to a freshly started server were refused for the
 * server's own start. Two samples: the one start-up polluted and the next one.
 */
const START_UP_GRACE_MS = 2_000;

/**
 * Refuses new requests with 503 and Retry-After while the event loop lags or memory is over its
 * bound, before the process collapses (V8 aborts at its heap limit; a stalled loop times every
 * request out). Requests already running go on. @fastify/under-pressure samples the load once a
 * second, so the check on each request costs a few comparisons.
 */
export const loadSheddingPlugin = fp<SheddingOptions>(async (app: FastifyInstance, opts) => {
  let readyAt = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    readyAt = Date.now();
  });
  await app.register(underPressure, {
    maxEventLoopDelay: opts.maxEventLoopDelayMs,
    maxHeapUsedBytes: opts.maxHeapBytes,
    maxRssBytes: opts.maxRssBytes,
    pressureHandler: (request, reply, type, value) => {
      // Without a reply sent here the request goes on as usual.
      if (request.routeOptions.config.servedUnderPressure) return;
      if (type === underPressure.TYPE_EVENT_LOOP_DELAY && Date.now() - readyAt < START_UP_GRACE_MS)
        return;
      countShed(type);
      request.log.warn({ type, value }, 'request shed: server over its load bound');
      void reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({
          success: false,
          error: `the server is overloaded (${type} over its bound); retry in ${RETRY_AFTER_SECONDS} s`,
        });
    },
  });
});
