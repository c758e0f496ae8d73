import { describe, expect, it } from 'vitest';
import { startFixtureSite } from '../fixtures/site/server.ts';
import { slowTextRoute, type Window } from '../fixtures/slow-origin.ts';
import { startWebhookReceiver } from '../fixtures/webhook-receiver.ts';
import { useFixture } from '../helpers/fixture.ts';
import { waitFor } from '../helpers/poll.ts';
import { TEST_KEY_2, useServer } from '../helpers/server.ts';

const windows: Window[] = [];
const site = useFixture(() => startFixtureSite({ '/slow-origin/*': slowTextRoute(windows) }));
/** The first key's receiver: takes deliveries and never answers. */
const silent = useFixture(startWebhookReceiver);
const answering = useFixture(startWebhookReceiver);
const t = useServer({ settings: { WEBDATA_WEBHOOK_TIMEOUT_MS: '8000' } });

describe('webhook deliveries shared between keys (issue 51, row 8)', () => {
  it("delivers another key's events at once while one key's receiver holds its deliveries unanswered", async () => {
    let hanging = 0;
    silent.respond = () => {
      hanging++;
      return new Promise<number>(() => undefined);
    };
    for (let job = 0; job < 2; job++) {
      const urls = Array.from(
        { length: 12 },
        (_, n) => `${site.origin}/slow-origin/${job}-${n}?ms=5`,
      );
      const created = await t.api('POST', '/api/v1/scrape/async/batch', {
        urls,
        webhook: { url: silent.url },
      });
      expect(created.status).toBe(202);
    }
    // Every place this key may hold is taken by a delivery its receiver will not answer.
    await waitFor(() => hanging >= 8, { what: 'deliveries hanging at the silent receiver' });
    const started = Date.now();
    const other = await t.api(
      'POST',
      '/api/v1/scrape/async/single',
      { url: `${site.origin}/slow-origin/other?ms=5`, webhook: { url: answering.url } },
      TEST_KEY_2,
    );
    expect(other.status).toBe(202);
    const done = await waitFor(
      () =>
        answering.received
          .map((d) => ({ at: d.at, json: JSON.parse(d.body) }))
          .find((d) => d.json.jobId === other.json.id && d.json.type === 'completed'),
      { what: "the other key's completed event", timeoutMs: 30_000 },
    );
    // First come, first served, it waited behind the silent receiver's 8 s time-outs.
    expect(done.at - started).toBeLessThan(4_000);
  });
});
