import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { useFixture } from '../helpers/fixture.ts';
import { startTestServer, TEST_KEY_2, useServer } from '../helpers/server.ts';

/** One sample of a Prometheus text exposition: `name{labels} value`, 0 when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

async function metrics(
  base: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(`${base}/metrics`, { headers });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text: await res.text(),
  };
}

const site = useFixture(() => startFixtureSite());
const t = useServer();

describe('GET /metrics', () => {
  it('counts requests by route template and status, with latency, and the charges they made', async () => {
    const before = (await metrics(t.base)).text;
    for (let i = 0; i < 3; i++)
      expect(
        (await t.api('POST', '/api/v1/scrape/single', { url: `${site.origin}/article.html` }))
          .status,
      ).toBe(200);
    expect((await t.api('POST', '/api/v1/scrape/single', { url: 42 })).status).toBe(400);
    expect((await t.api('GET', '/api/v1/scrape/async/job/no-such-job')).status).toBe(404);

    const { status, type, text } = await metrics(t.base);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    const route = { method: 'POST', route: '/api/v1/scrape/single' };
    const delta = (name: string, labels: Record<string, string>) =>
      sample(text, name, labels) - sample(before, name, labels);
    expect(delta('webdata_http_requests_total', { ...route, status: '200' })).toBe(3);
    expect(delta('webdata_http_requests_total', { ...route, status: '400' })).toBe(1);
    // The template, never the raw path with its id.
    expect(
      delta('webdata_http_requests_total', {
        method: 'GET',
        route: '/api/v1/scrape/async/job/:id',
        status: '404',
      }),
    ).toBe(1);
    expect(text).not.toContain('no-such-job');
    expect(delta('webdata_http_request_duration_seconds_count', route)).toBe(4);
    expect(delta('webdata_http_request_duration_seconds_sum', route)).toBeGreaterThan(0);
    expect(delta('webdata_charges_usd_total', { operation: 'scrape' })).toBeCloseTo(0.006, 9);
    expect(delta('webdata_charge_units_total', { operation: 'scrape' })).toBe(3);
    // Process figures come along (prom-client's defaults, prefixed).
    expect(sample(text, 'webdata_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('reports gauges of the conversion pool, browser pools, sessions and the job queue', async () => {
    const { text } = await metrics(t.base);
    expect(sample(text, 'webdata_conversion_threads')).toBe(1);
    expect(text).toMatch(/^webdata_conversion_tasks_queued 0$/m);
    expect(text).toMatch(/^webdata_browser_pages_in_use\{pool="browser"\} 0$/m);
    expect(text).toMatch(/^webdata_browser_pages_waiting\{pool="browser-stealth"\} 0$/m);
    expect(text).toMatch(/^webdata_sessions_active 0$/m);
    expect(sample(text, 'webdata_sessions_capacity')).toBeGreaterThan(0);
    expect(text).toMatch(/^webdata_job_items\{state="pending"\} 0$/m);
  });

  it('counts job items waiting in the queue while a job is pending', async () => {
    // Items of a page that answers slowly: running or pending for seconds.
    const created = await t.api('POST', '/api/v1/scrape/async/batch', {
      urls: Array.from({ length: 20 }, (_, i) => `${site.origin}/slow?ms=5000&i=${i}`),
    });
    expect(created.status).toBe(202);
    const waiting = (text: string) =>
      sample(text, 'webdata_job_items', { state: 'pending' }) +
      sample(text, 'webdata_job_items', { state: 'running' });
    expect(waiting((await metrics(t.base)).text)).toBe(20);
    expect((await t.api('DELETE', `/api/v1/scrape/async/job/${created.json.id}`)).status).toBe(200);
    // A cancelled job's items no longer count as queued.
    expect(waiting((await metrics(t.base)).text)).toBe(0);
  });

  it('counts block verdicts by method, kind and rule, never by page text', async () => {
    const before = (await metrics(t.base)).text;
    const res = await t.api('POST', '/api/v1/scrape/single', {
      url: `${site.origin}/browser/always-blocked`,
    });
    expect(res.json.success).toBe(false);
    const { text } = await metrics(t.base);
    for (const method of ['http', 'browser', 'browser-stealth']) {
      const labels = { method, kind: 'blocked', reason: 'captcha wall' };
      expect(
        sample(text, 'webdata_block_verdicts_total', labels) -
          sample(before, 'webdata_block_verdicts_total', labels),
        method,
      ).toBe(1);
    }
  }, 90_000);

  it('answers only loopback clients when no token is set', async () => {
    const behindProxy = await startTestServer({ WEBDATA_TRUST_PROXY: 'true' });
    try {
      expect((await metrics(behindProxy.base, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(
        200,
      );
      const remote = await metrics(behindProxy.base, { 'x-forwarded-for': '203.0.113.9' });
      expect(remote.status).toBe(404);
      expect(remote.text).not.toContain('webdata_');
      // A remote client that writes 127.0.0.1 itself, before the address the loopback proxy
      // appends: the leftmost entry is loopback, the hop that reached the proxy is not.
      const spoofed = await metrics(behindProxy.base, {
        'x-forwarded-for': '127.0.0.1, 203.0.113.9',
      });
      expect(spoofed.status).toBe(404);
      expect(spoofed.text).not.toContain('webdata_');
      // A client that reaches the port itself from another host, claiming to be loopback: only
      // an injected request can come from a non-loopback socket on a machine tests keep to itself.
      const direct = await behindProxy.server.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(direct.statusCode).toBe(404);
    } finally {
      await behindProxy.close();
    }
  });

  it('asks for WEBDATA_METRICS_TOKEN when one is set, and API keys do not stand in for it', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const guarded = await startTestServer({ WEBDATA_METRICS_TOKEN: token });
    try {
      expect((await metrics(guarded.base)).status).toBe(401);
      expect(
        (await metrics(guarded.base, { authorization: 'Bearer wd_test_key_user_one_0123456789' }))
          .status,
      ).toBe(401);
      expect((await metrics(guarded.base, { authorization: `Bearer ${token}x` })).status).toBe(401);
      const ok = await metrics(guarded.base, { authorization: `Bearer ${token}` });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('webdata_http_requests_total');
    } finally {
      await guarded.close();
    }
  });
});

describe('GET /v1/usage', () => {
  const today = () => new Date().toISOString().slice(0, 10);

  it("returns the caller's own charges by day and operation", async () => {
    const mine = await t.api('GET', '/api/v1/usage');
    expect(mine.status).toBe(200);
    expect(mine.json.success).toBe(true);
    expect(mine.json.to).toBe(today());
    expect(Date.parse(mine.json.to) - Date.parse(mine.json.from)).toBe(29 * 86_400_000);
    const scrape = mine.json.operations.find(
      (o: { operation: string }) => o.operation === 'scrape',
    );
    // The three article scrapes above, and nothing for failures (which cost 0).
    expect(scrape).toEqual({ operation: 'scrape', units: 3, cost: 0.006, charges: 3 });
    expect(mine.json.totalCost).toBe(
      mine.json.operations.reduce((n: number, o: { cost: number }) => n + o.cost, 0),
    );
    expect(mine.json.days).toHaveLength(1);
    expect(mine.json.days[0].date).toBe(today());
    expect(mine.json.days[0].operations).toContainEqual(scrape);

    const theirs = await t.api('GET', '/api/v1/usage', undefined, TEST_KEY_2);
    expect(theirs.status).toBe(200);
    expect(theirs.json).toMatchObject({ totalCost: 0, operations: [], days: [] });
  });

  it('limits the answer to from..to, inclusive', async () => {
    const past = await t.api('GET', '/api/v1/usage?from=2020-01-01&to=2020-12-31');
    expect(past.status).toBe(200);
    expect(past.json).toMatchObject({
      from: '2020-01-01',
      to: '2020-12-31',
      totalCost: 0,
      days: [],
    });
    const justToday = await t.api('GET', `/api/v1/usage?from=${today()}&to=${today()}`);
    expect(justToday.json.totalCost).toBeGreaterThanOrEqual(0.006);
  });

  it('refuses bad dates and spans naming the field, and needs a key', async () => {
    const cases: Array<[string, string]> = [
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-11-10&to=2026-11-01', 'from'],
      ['from=2020-01-01&to=2026-01-01', 'from'],
    ];
    for (const [query, field] of cases) {
      const res = await t.api('GET', `/api/v1/usage?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.details[0].field, query).toBe(field);
      expect(res.json.error.startsWith(`${field}: `), query).toBe(true);
    }
    expect((await t.api('GET', '/api/v1/usage', undefined, null)).status).toBe(401);
  });
});

describe('load shedding', () => {
  it('answers API requests 503 with Retry-After over a memory bound, while /health and /metrics still answer', async () => {
    // A heap bound of one byte: every sample of the load gauges (one a second) is over it.
    const pressed = await startTestServer({ WEBDATA_SHED_HEAP_BYTES: '1' });
    try {
      let res = await pressed.api('GET', '/api/v1/usage');
      for (let i = 0; i < 50 && res.status !== 503; i++) {
        await new Promise((r) => setTimeout(r, 200));
        res = await pressed.api('GET', '/api/v1/usage');
      }
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.json).toMatchObject({ success: false });
      expect(res.json.error).toMatch(/overloaded \(heapUsedBytes/);
      // Shed before authentication: even a keyless request costs no key lookup.
      expect((await pressed.api('GET', '/api/v1/usage', undefined, null)).status).toBe(503);
      expect((await pressed.api('GET', '/no/such/route')).status).toBe(503);

      const health = await fetch(`${pressed.base}/health`);
      expect(health.status).toBe(200);
      const m = await metrics(pressed.base);
      expect(m.status).toBe(200);
      expect(
        sample(m.text, 'webdata_shed_requests_total', { reason: 'heapUsedBytes' }),
      ).toBeGreaterThanOrEqual(2);
    } finally {
      await pressed.close();
    }
  });

  it('sheds while the event loop is stalled, and serves again once it runs freely', async () => {
    const pressed = await startTestServer({ WEBDATA_SHED_EVENT_LOOP_DELAY_MS: '5' });
    try {
      // The server runs in this process: holding the loop here stalls it. The bound is a mean over
      // the last second's samples, so the stall is long enough to lift the mean well past 5 ms.
      let res = await pressed.api('GET', '/api/v1/usage');
      for (let i = 0; i < 5 && res.status !== 503; i++) {
        const until = Date.now() + 2500;
        while (Date.now() < until);
        await new Promise((r) => setTimeout(r, 20));
        res = await pressed.api('GET', '/api/v1/usage');
      }
      expect(res.status).toBe(503);
      expect(res.json.error).toMatch(/overloaded \(eventLoopDelay/);
      expect(res.headers.get('retry-after')).toBeTruthy();
      for (let i = 0; i < 100 && res.status === 503; i++) {
        await new Promise((r) => setTimeout(r, 200));
        res = await pressed.api('GET', '/api/v1/usage');
      }
      expect(res.status).toBe(200);
    } finally {
      await pressed.close();
    }
  }, 60_000);

  it('serves normally under the default bounds', async () => {
    expect((await t.api('GET', '/api/v1/usage')).status).toBe(200);
  });
});
