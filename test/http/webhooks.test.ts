import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linksPage, startCrawlSite } from '../fixtures/crawl-site.ts';
import { startWebhookReceiver } from '../fixtures/webhook-receiver.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { startTestServer, TEST_KEY_2, toLoopback, useServer } from '../helpers/server.ts';
import { recordedWebhooks, waitForJob } from '../jobs/helpers.ts';

const site = useFixture(() =>
  startCrawlSite({
    pages: {
      'hooks.test': {
        '/': linksPage('Home', ['/a', '/b']),
        '/a': linksPage('A', []),
        '/b': linksPage('B', []),
      },
    },
  }),
);
const receiver = useFixture(startWebhookReceiver);
const t = useServer({ settings: () => ({ WEBDATA_TEST_RESOLVE: toLoopback(site.hosts) }) });

/** The documented check: hex HMAC-SHA256 of `${timestamp}.${raw body}` with the secret, prefixed v1=. */
function verifies(secret: string, d: { headers: Record<string, unknown>; body: string }): boolean {
  const timestamp = String(d.headers['webdata-timestamp']);
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${d.body}`).digest('hex')}`;
  return (
    d.headers['webdata-signature'] === expected &&
    Math.abs(Date.now() / 1000 - Number(timestamp)) < 300
  );
}

const eventsOf = (jobId: string) =>
  receiver.received
    .map((d) => ({ ...d, json: JSON.parse(d.body) }))
    .filter((d) => d.json.jobId === jobId);

describe('webhooks', () => {
  it('delivers started, one item per page and completed, signed with the secret shown once', async () => {
    receiver.respond = () => 200;
    const started = await t.api('POST', '/api/v1/crawl', {
      url: site.url('hooks.test'),
      sitemap: 'skip',
      webhook: { url: receiver.url, headers: { 'x-team': 'crawlers' } },
    });
    expect(started.status).toBe(202);
    const secret = started.json.webhookSecret as string;
    expect(secret).toMatch(/^whsec_/);
    const job = await waitForJob(t, started.json.url);
    expect(job.total).toBe(3);
    const got = await waitFor(() => (eventsOf(job.id).length >= 5 ? eventsOf(job.id) : undefined), {
      what: 'five events',
      timeoutMs: 30_000,
    });
    expect(got.map((d) => d.json.type).sort()).toEqual([
      'completed',
      'item',
      'item',
      'item',
      'started',
    ]);
    for (const d of got) {
      expect(verifies(secret, d)).toBe(true);
      expect(verifies('whsec_not-the-secret', d)).toBe(false);
      expect(d.headers['x-team']).toBe('crawlers');
      expect(d.headers['webdata-event']).toBe(d.json.type);
      expect(d.headers['webdata-event-id']).toBe(d.json.id);
      expect(d.json).toMatchObject({ jobId: job.id, jobType: 'crawl' });
    }
    const items = got.filter((d) => d.json.type === 'item').map((d) => d.json.data);
    expect(items.map((i) => i.index).sort()).toEqual([0, 1, 2]);
    expect(items.find((i) => i.index === 0).result).toMatchObject({
      url: site.url('hooks.test'),
      depth: 0,
      success: true,
    });
    expect(got.find((d) => d.json.type === 'completed')!.json.data).toMatchObject({
      status: 'completed',
      total: 3,
      completed: 3,
      cost: 0.006,
    });
    // A tampered body no longer matches its signature.
    const one = got[0]!;
    expect(
      verifies(secret, { headers: one.headers, body: one.body.replace(job.id, 'another-job') }),
    ).toBe(false);

    // The secret is shown once: a second job does not repeat it; rotating makes a new one that signs from then on.
    const again = await t.api('POST', '/api/v1/scrape/async/batch', {
      urls: [site.url('hooks.test', '/a')],
      webhook: { url: receiver.url, events: ['completed'] },
    });
    expect(again.status).toBe(202);
    expect(again.json.webhookSecret).toBeUndefined();
    const batchDone = await waitFor(() => eventsOf(again.json.id)[0], {
      what: 'the batch completed event',
      timeoutMs: 30_000,
    });
    expect(verifies(secret, batchDone)).toBe(true);
    // Only the events asked for.
    await waitForJob(t, again.json.url);
    await new Promise((r) => setTimeout(r, 500));
    expect(eventsOf(again.json.id).map((d) => d.json.type)).toEqual(['completed']);

    const rotated = await t.api('POST', '/api/v1/webhooks/secret');
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).not.toBe(secret);
    const third = await t.api('POST', '/api/v1/scrape/async/single', {
      url: site.url('hooks.test', '/b'),
      webhook: { url: receiver.url, events: ['completed'] },
    });
    const thirdDone = await waitFor(() => eventsOf(third.json.id)[0], {
      what: 'the single completed event',
      timeoutMs: 30_000,
    });
    expect(verifies(rotated.json.secret, thirdDone)).toBe(true);
    expect(verifies(secret, thirdDone)).toBe(false);

    // Each key has its own secret.
    const other = await t.api(
      'POST',
      '/api/v1/scrape/async/single',
      { url: site.url('hooks.test', '/b'), webhook: { url: receiver.url, events: ['completed'] } },
      TEST_KEY_2,
    );
    expect(other.json.webhookSecret).toMatch(/^whsec_/);
    const otherDone = await waitFor(() => eventsOf(other.json.id)[0], {
      what: "the other key's event",
      timeoutMs: 30_000,
    });
    expect(verifies(other.json.webhookSecret, otherDone)).toBe(true);
    expect(verifies(rotated.json.secret, otherDone)).toBe(false);
  });

  it('retries a delivery the receiver failed twice, with backoff, and shows every attempt', async () => {
    receiver.respond = ({ seen }) => (seen <= 2 ? 500 : 200);
    const started = await t.api('POST', '/api/v1/scrape/async/single', {
      url: site.url('hooks.test', '/a'),
      webhook: { url: receiver.url, events: ['completed'] },
    });
    expect(started.status).toBe(202);
    const deliveries = await waitFor(
      () => {
        const got = eventsOf(started.json.id);
        return got.length >= 3 ? got : undefined;
      },
      { what: 'three attempts', timeoutMs: 30_000 },
    );
    expect(deliveries.map((d) => d.status)).toEqual([500, 500, 200]);
    // One event, the same body each time; the second wait is longer than the first.
    expect(new Set(deliveries.map((d) => d.json.id)).size).toBe(1);
    expect(deliveries[1]!.at - deliveries[0]!.at).toBeGreaterThanOrEqual(900);
    expect(deliveries[2]!.at - deliveries[1]!.at).toBeGreaterThanOrEqual(1800);
    const attempts = await waitFor(
      async () => {
        const v = (await t.api('GET', `${started.json.url}/webhooks`)).json;
        return v.events[0]?.state !== 'pending' && v;
      },
      { timeoutMs: 10_000, what: 'the event recorded as delivered or failed' },
    );
    expect(attempts).toMatchObject({ success: true, id: started.json.id, total: 1 });
    expect(attempts.events[0]).toMatchObject({
      event: 'completed',
      url: receiver.url,
      state: 'delivered',
    });
    expect(attempts.events[0].attempts.map((a: any) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(attempts.events[0].attempts[0].error).toContain('500');
  });

  it('keeps undelivered events across a restart and delivers them after it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'webdata-webhooks-'));
    try {
      receiver.respond = () => 503;
      const first = await startTestServer({
        WEBDATA_TEST_RESOLVE: toLoopback(site.hosts),
        WEBDATA_DATA_DIR: dataDir,
      });
      const started = await first.api('POST', '/api/v1/scrape/async/batch', {
        urls: [site.url('hooks.test', '/a'), site.url('hooks.test', '/b')],
        webhook: { url: receiver.url },
      });
      expect(started.status).toBe(202);
      await waitForJob(first, started.json.url);
      await waitFor(() => eventsOf(started.json.id).length > 0, {
        what: 'a refused delivery',
        timeoutMs: 30_000,
      });
      await first.close();
      const refusedBefore = eventsOf(started.json.id).length;

      receiver.respond = () => 200;
      const second = await startTestServer({
        WEBDATA_TEST_RESOLVE: toLoopback(site.hosts),
        WEBDATA_DATA_DIR: dataDir,
      });
      try {
        // started, two items, completed: each delivered once the receiver answers, by the new process.
        const delivered = await waitFor(
          () => {
            const ok = eventsOf(started.json.id).filter((d) => d.status === 200);
            return ok.length >= 4 ? ok : undefined;
          },
          { what: 'every event delivered', timeoutMs: 30_000 },
        );
        expect(delivered.map((d) => d.json.type).sort()).toEqual([
          'completed',
          'item',
          'item',
          'started',
        ]);
        expect(refusedBefore).toBeGreaterThan(0);
        const view = await recordedWebhooks(second, started.json.url);
        expect(view.total).toBe(4);
        for (const e of view.events) expect(e.attempts.at(-1).statusCode).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses at start, naming webhook.url, a webhook the SSRF guard refuses', async () => {
    const jobsBefore = (await t.api('GET', '/api/v1/scrape/async/jobs?limit=1')).json.total;
    for (const url of [
      'http://169.254.169.254/latest/hook',
      'http://metadata.google.internal/hook',
      'ftp://127.0.0.1/hook',
    ]) {
      for (const path of [
        '/api/v1/crawl',
        '/api/v1/scrape/async/single',
        '/api/v1/scrape/async/batch',
      ]) {
        const body =
          path === '/api/v1/scrape/async/batch'
            ? { urls: [site.url('hooks.test')], webhook: { url } }
            : { url: site.url('hooks.test'), webhook: { url } };
        const { status, json } = await t.api('POST', path, body);
        expect(status, `${path} ${url}`).toBe(400);
        expect(json.success).toBe(false);
        expect(json.details[0].field).toBe('webhook.url');
      }
    }
    const reserved = await t.api('POST', '/api/v1/crawl', {
      url: site.url('hooks.test'),
      webhook: { url: receiver.url, headers: { 'webdata-signature': 'v1=forged' } },
    });
    expect(reserved.status).toBe(400);
    expect(reserved.json.details[0].field).toBe('webhook.headers.webdata-signature');
    // Refused before anything was stored: no job appeared.
    expect((await t.api('GET', '/api/v1/scrape/async/jobs?limit=1')).json.total).toBe(jobsBefore);
  });

  it('refuses at start, naming the field, a webhook URL or header no delivery could send', async () => {
    const jobsBefore = (await t.api('GET', '/api/v1/scrape/async/jobs?limit=1')).json.total;
    const longName = `x-${'n'.repeat(120)}`;
    const port = new URL(receiver.url).port;
    const cases: Array<{ webhook: object; field: string; says: RegExp }> = [
      {
        webhook: { url: receiver.url.replace(`:${port}`, ':0') },
        field: 'webhook.url',
        says: /port 0/,
      },
      {
        webhook: { url: receiver.url, headers: { [longName]: 'x' } },
        field: `webhook.headers.${longName.slice(0, 100)}`,
        says: /longer than 100 characters/,
      },
      {
        webhook: { url: receiver.url, headers: { 'x-split': 'a\r\nx-injected: 1' } },
        field: 'webhook.headers.x-split',
        says: /no CR, LF, NUL/,
      },
      {
        webhook: { url: receiver.url, headers: { 'x-nul': 'a\u0000b' } },
        field: 'webhook.headers.x-nul',
        says: /no CR, LF, NUL/,
      },
      {
        webhook: { url: receiver.url, headers: { 'x-lf': 'a\nb' } },
        field: 'webhook.headers.x-lf',
        says: /no CR, LF, NUL/,
      },
    ];
    const doors: Array<[string, (webhook: object) => object]> = [
      ['/api/v1/crawl', (webhook) => ({ url: site.url('hooks.test'), webhook })],
      ['/api/v1/scrape/async/single', (webhook) => ({ url: site.url('hooks.test'), webhook })],
      ['/api/v1/scrape/async/batch', (webhook) => ({ urls: [site.url('hooks.test')], webhook })],
      [
        '/api/v1/scrape/async/sequence',
        (webhook) => ({ startUrl: site.url('hooks.test'), steps: [{ type: 'scrape' }], webhook }),
      ],
    ];
    for (const { webhook, field, says } of cases)
      for (const [path, body] of doors) {
        const { status, json } = await t.api('POST', path, body(webhook));
        expect(status, `${path} ${field}`).toBe(400);
        expect(json.details[0].field, path).toBe(field);
        expect(json.error, path).toMatch(says);
      }
    // The Firecrawl doors take no webhook at all: the field is refused by name.
    for (const [path, body] of [
      ['/v2/crawl', { url: site.url('hooks.test') }],
      ['/v2/batch/scrape', { urls: [site.url('hooks.test')] }],
    ] as const) {
      const { status, json } = await t.api('POST', path, { ...body, webhook: cases[0]!.webhook });
      expect(status, path).toBe(400);
      expect(JSON.stringify(json), path).toContain('webhook');
    }
    expect((await t.api('GET', '/api/v1/scrape/async/jobs?limit=1')).json.total).toBe(jobsBefore);
  });
});
