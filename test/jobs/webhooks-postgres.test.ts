import { createHmac } from 'node:crypto';
import { expect, it } from 'vitest';
import { linksPage, startCrawlSite } from '../fixtures/crawl-site.ts';
import { startWebhookReceiver } from '../fixtures/webhook-receiver.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { useServer } from '../helpers/server.ts';
import { recordedWebhooks, waitForJob } from './helpers.ts';

const site = useFixture(() =>
  startCrawlSite({
    pages: { 'pg.test': { '/': linksPage('Home', ['/a']), '/a': linksPage('A', []) } },
  }),
);
const receiver = useFixture(startWebhookReceiver);
const t = useServer({
  backend: 'postgres',
  settings: { WEBDATA_TEST_RESOLVE: 'pg.test=127.0.0.1' },
});

it('on Postgres, a crawl delivers its signed events once each, retried after a failure, with the attempts listed', {
  timeout: 60_000,
}, async () => {
  receiver.respond = ({ seen }) => (seen === 1 ? 502 : 200);
  const started = await t.api('POST', '/api/v1/crawl', {
    url: site.url('pg.test'),
    sitemap: 'skip',
    webhook: { url: receiver.url },
  });
  expect(started.status).toBe(202);
  const job = await waitForJob(t, started.json.url);
  expect(job).toMatchObject({ status: 'completed', total: 2, completed: 2, cost: 0.004 });
  await waitFor(() => receiver.received.filter((d) => d.status === 200).length >= 4, {
    timeoutMs: 30_000,
  });
  const ok = receiver.received.filter((d) => d.status === 200);
  expect(ok.map((d) => JSON.parse(d.body).type).sort()).toEqual([
    'completed',
    'item',
    'item',
    'started',
  ]);
  for (const d of ok) {
    const ts = String(d.headers['webdata-timestamp']);
    expect(d.headers['webdata-signature']).toBe(
      `v1=${createHmac('sha256', started.json.webhookSecret).update(`${ts}.${d.body}`).digest('hex')}`,
    );
  }
  const view = await recordedWebhooks(t, started.json.url);
  expect(view.total).toBe(4);
  for (const e of view.events) {
    expect(e.state).toBe('delivered');
    expect(e.attempts.map((a: any) => a.statusCode)).toEqual([502, 200]);
  }
});
