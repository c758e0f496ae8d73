import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { loadSheddingPlugin } from '../../src/http/load-shedding.ts';

function stall(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

async function appWithSlowStart(blockMs: number) {
  const app = Fastify();
  await app.register(loadSheddingPlugin, {
    maxEventLoopDelayMs: 5,
    maxHeapBytes: 0,
    maxRssBytes: 0,
  });
  // Start-up work that holds the loop past the gauge's first sample, as module loading and
  // migrations do on a busy machine.
  app.addHook('onReady', async () => stall(blockMs));
  app.get('/work', async () => ({ ok: true }));
  await app.ready();
  // Let the gauge take its sample of the stall.
  await new Promise((r) => setTimeout(r, 50));
  return app;
}

it("does not refuse a fresh server's first requests for its own start-up stall", async () => {
  const app = await appWithSlowStart(1_200);
  try {
    expect((await app.inject({ method: 'GET', url: '/work' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});

it('sheds once the start-up grace is over and the loop still lags', async () => {
  const app = await appWithSlowStart(0);
  try {
    let status = 200;
    for (let i = 0; i < 5 && status !== 503; i++) {
      stall(2_500);
      await new Promise((r) => setTimeout(r, 20));
      status = (await app.inject({ method: 'GET', url: '/work' })).statusCode;
    }
    expect(status).toBe(503);
  } finally {
    await app.close();
  }
});
